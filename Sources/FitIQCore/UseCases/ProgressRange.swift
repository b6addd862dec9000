#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The range a progress report covers, as the progress screen and plain mode's `trend` offer it.
public enum ProgressRange: Int, CaseIterable, Sendable {
    case fourWeeks, threeMonths, year, all

    /// How many days back it starts (`nil`: the whole history).
    public var days: Int? {
        switch self {
        case .fourWeeks: 28
        case .threeMonths: 91
        case .year: 365
        case .all: nil
        }
    }

    /// The word plain mode and the commands take: `4w`, `3m`, `1y`, `all`.
    public var word: String {
        switch self {
        case .fourWeeks: "4w"
        case .threeMonths: "3m"
        case .year: "1y"
        case .all: "all"
        }
    }

    /// The first instant of the range, as of `now`.
    public func since(now: Date) -> Date? {
        days.map { now.addingTimeInterval(-Double($0) * 86_400) }
    }
}
