#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Body mass index, derived: a weight ÷ (the height at that weight's date)². It is never typed, never
/// posted, and never imported (a health export's BMI records are left out).
public struct BodyMassIndex: Sendable, Equatable {
    /// The WHO adult categories.
    public enum Category: String, Sendable, Equatable {
        case underweight = "underweight"
        case healthy = "healthy weight"
        case overweight = "overweight"
        case obese = "obesity"

        /// The category of `value`, rounded to 0.1 as it is shown: under 18.5, 18.5–24.9, 25–29.9,
        /// 30 and over.
        public init(_ value: Double) {
            let shown = (value * 10).rounded() / 10
            switch shown {
            case ..<18.5: self = .underweight
            case ..<25: self = .healthy
            case ..<30: self = .overweight
            default: self = .obese
            }
        }

    }

    /// The index, to 0.1.
    public var value: Double
    /// When the weight it comes from was logged.
    public var at: Date
    /// The WHO adult category, or `nil` when the person was under 20 on that date (adult ranges do not
    /// apply) or the date of birth is unknown.
    public var category: Category?
    /// Whether the person was under 20 on that date.
    public var isUnderTwenty: Bool

    /// The age from which the adult categories apply.
    public static let adultAge = 20

    /// The index of `kilograms` at `centimetres`, or `nil` when either is not a usable value.
    public static func value(kilograms: Double, centimetres: Double) -> Double? {
        guard kilograms.isFinite, centimetres.isFinite, kilograms > 0, centimetres > 0 else { return nil }
        let metres = centimetres / 100
        let value = kilograms / (metres * metres)
        return value.isFinite ? (value * 10).rounded() / 10 : nil
    }

    /// The index of a weight logged at `at`, with the category when the person was 20 or older then.
    public init?(
        kilograms: Double, centimetres: Double, at: Date, dateOfBirth: CalendarDate?, timeZone: LocalZone
    ) {
        guard let value = Self.value(kilograms: kilograms, centimetres: centimetres) else { return nil }
        self.value = value
        self.at = at
        let age = dateOfBirth.map { $0.years(until: CalendarDate(containing: at, in: timeZone)) }
        isUnderTwenty = age.map { $0 < Self.adultAge } ?? false
        category = age.map { $0 >= Self.adultAge ? Category(value) : nil } ?? nil
    }

}

extension BodyMassIndex {
    /// The BMI of the latest weight in `state`, with the height at that weight's date: the newest height
    /// logged no later than it, else the profile's height. `nil` without a weight or a height.
    public static func latest(in state: AccountRecord<some EntryList>, timeZone: LocalZone) -> BodyMassIndex? {
        guard let weight = state.history.latest(of: .weight) else { return nil }
        let heightThen =
            state.history.lazy.filter { $0.type == Metric.height.type && $0.loggedAt <= weight.loggedAt }
            .max { $0.loggedAt < $1.loggedAt }?.quantity ?? state.profile?.heightCm
        guard let heightThen else { return nil }
        return BodyMassIndex(
            kilograms: weight.quantity, centimetres: heightThen, at: weight.loggedAt,
            dateOfBirth: state.profile?.dateOfBirth, timeZone: timeZone)
    }
}
