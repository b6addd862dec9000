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
        guard let number = positiveNumber(value) else { return nil }
        let centimetres: Double
        switch unit {
        case "cm": centimetres = number
        case "m": centimetres = number * 100
        case "in": centimetres = number * 2.54
        case "ft": centimetres = number * 30.48
        default: return nil
        }
        return finite(centimetres)
    }

    /// Kilograms in a pound (exact, by definition).
    static let kilogramsPerPound = 0.453_592_37
    /// Kilograms in a stone (14 pounds).
    static let kilogramsPerStone = 14 * kilogramsPerPound

    /// A body mass `value` in `unit` (`kg`, `lb`, `st`, `g`) as kilograms, or `nil` for an unknown unit
    /// or a value that is not a positive number.
    static func kilograms(value: String, unit: String) -> Double? {
        guard let number = positiveNumber(value) else { return nil }
        let kilograms: Double
        switch unit {
        case "kg": kilograms = number
        case "lb": kilograms = number * kilogramsPerPound
        case "st": kilograms = number * kilogramsPerStone
        // Divided, not multiplied by 0.001: 72400 g is then exactly the number 72.4 kg is.
        case "g": kilograms = number / 1000
        default: return nil
        }
        return finite(kilograms)
    }

    /// A body fat `value` as percent, or `nil` for a unit other than `%` or a value that is not a
    /// positive number. The export keeps body fat as a fraction: `unit="%" value="0.162"` is 16.2 %.
    static func percent(value: String, unit: String) -> Double? {
        guard unit == "%", let number = positiveNumber(value) else { return nil }
        return finite(number * 100)
    }

    /// The positive finite number `value` holds (spaces around it allowed).
    private static func positiveNumber(_ value: String) -> Double? {
        guard let number = Double(value.trimmingSpaces()), number.isFinite, number > 0 else { return nil }
        return number
    }

    /// `value` if finite: a finite value can still overflow in conversion (1e308 ft), and that is no
    /// number either.
    private static func finite(_ value: Double) -> Double? {
        value.isFinite ? value : nil
    }
}
