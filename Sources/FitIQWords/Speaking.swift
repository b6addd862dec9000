import FitIQCore
import FitIQLocalization

/// Runs `body` with `localizer`'s language in force: the sentences it says and the way it writes a
/// number's decimals (`72,4` in German). Every front end enters a language this way.
public func speaking<T>(_ localizer: Localizer, _ body: () throws -> T) rethrows -> T {
    try Localizer.$current.withValue(localizer) {
        try DecimalText.$separator.withValue(localizer.decimalSeparator) {
            try DecimalText.$groupSeparator.withValue(localizer.groupSeparator) {
                try UnitNames.$wording.withValue(UnitNames.Wording(UnitWords.shown), operation: body)
            }
        }
    }
}

/// ``speaking(_:_:)`` for asynchronous work.
public func speaking<T>(
    _ localizer: Localizer, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
) async rethrows -> T {
    try await Localizer.$current.withValue(localizer) {
        try await DecimalText.$separator.withValue(localizer.decimalSeparator) {
            try await DecimalText.$groupSeparator.withValue(localizer.groupSeparator) {
                try await UnitNames.$wording.withValue(UnitNames.Wording(UnitWords.shown), operation: body)
            }
        }
    }
}

/// The units that are words, said in the language in force (``UnitNames``).
enum UnitWords {
    @Sendable static func shown(_ unit: String) -> String {
        switch unit {
        case "steps": trc("unit", "steps")
        default: unit
        }
    }
}
