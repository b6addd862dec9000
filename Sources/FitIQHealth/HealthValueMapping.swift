import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Maps the export's raw attribute text to domain values.
enum HealthValueMapping {
    /// The biological sex an `HKCharacteristicTypeIdentifierBiologicalSex` attribute holds (`nil`: no attribute).
    static func biologicalSex(_ raw: String?) -> HealthValue<BiologicalSex> {
        guard let raw else { return .missing }
        switch raw {
        case "HKBiologicalSexMale": return .value(.male)
        case "HKBiologicalSexFemale": return .value(.female)
        case "HKBiologicalSexOther": return .value(.other)
        case "HKBiologicalSexNotSet", "": return .notSet
        default: return .unknown(raw)
        }
    }

    /// The date of birth an `HKCharacteristicTypeIdentifierDateOfBirth` attribute holds (`nil`: no attribute).
    static func dateOfBirth(_ raw: String?) -> HealthValue<CalendarDate> {
        guard let raw else { return .missing }
        if raw.isEmpty { return .notSet }
        guard let date = CalendarDate(parsing: raw) else { return .unknown(raw) }
        return .value(date)
    }

    /// `value` in `unit` as centimetres, or `nil` for an unknown unit or a value that is not a positive number.
    static func centimetres(value: String, unit: String) -> Double? {
        guard let number = Double(value.trimmingSpaces()), number.isFinite, number > 0 else {
            return nil
        }
        let centimetres: Double
        switch unit {
        case "cm": centimetres = number
        case "m": centimetres = number * 100
        case "in": centimetres = number * 2.54
        case "ft": centimetres = number * 30.48
        default: return nil
        }
        // A finite value can still overflow in conversion (1e308 ft): that is no number either.
        return centimetres.isFinite ? centimetres : nil
    }
}
