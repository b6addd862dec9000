import FitIQCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The activity records of an Apple Health export that become a day's total each: steps, distance,
/// exercise minutes, energy burned (active and basal together), water, food energy, protein, carbs,
/// fat, resting heart rate, and sleep (every asleep value, old and new; in bed and awake are not sleep).
///
/// A record's type is told by its length, then one `memcmp`: the export's other millions of records
/// (heart rate, flights climbed, …) cost a table look-up each.
enum HealthActivityRecords {
    /// What a record type becomes.
    enum Kind {
        /// A sample of a metric, its value converted from the record's unit.
        case sample(ActivityDays.Slot, Metric, convert: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double?)
        /// A stretch of a night, asleep or not (its `value` says).
        case sleep
    }

    /// The types read, by the length of their name (a few share a length).
    static let byLength: [[(name: [UInt8], kind: Kind)]] = {
        let types: [(String, Kind)] = [
            ("HKQuantityTypeIdentifierStepCount", sample(.steps, count)),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", sample(.distance, kilometres)),
            ("HKQuantityTypeIdentifierAppleExerciseTime", sample(.activeMinutes, minutes)),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", sample(.caloriesOut, kilocalories)),
            ("HKQuantityTypeIdentifierBasalEnergyBurned", sample(.caloriesOut, kilocalories)),
            ("HKQuantityTypeIdentifierDietaryEnergyConsumed", sample(.caloriesIn, kilocalories)),
            ("HKQuantityTypeIdentifierDietaryWater", sample(.water, litres)),
            ("HKQuantityTypeIdentifierDietaryProtein", sample(.protein, grams)),
            ("HKQuantityTypeIdentifierDietaryCarbohydrates", sample(.carbs, grams)),
            ("HKQuantityTypeIdentifierDietaryFatTotal", sample(.fat, grams)),
            ("HKQuantityTypeIdentifierRestingHeartRate", sample(.restingHeartRate, beatsPerMinute)),
            ("HKCategoryTypeIdentifierSleepAnalysis", .sleep),
        ]
        var table = Array(repeating: [(name: [UInt8], kind: Kind)](), count: 64)
        for (name, kind) in types { table[name.utf8.count].append((Array(name.utf8), kind)) }
        return table
    }()

    /// The kind of a record's `type`, or `nil` for a type not read here.
    static func kind(of type: UnsafeBufferPointer<UInt8>) -> Kind? {
        guard type.count < byLength.count, let base = type.baseAddress else { return nil }
        for candidate in byLength[type.count] {
            let same = candidate.name.withUnsafeBufferPointer { name in
                name.baseAddress.map { memcmp(base, $0, type.count) == 0 } ?? false
            }
            if same { return candidate.kind }
        }
        return nil
    }

    /// Whether a sleep record's `value` is a stage asleep: `HKCategoryValueSleepAnalysisAsleep` (before
    /// iOS 16), `…AsleepUnspecified`, `…AsleepCore`, `…AsleepDeep`, `…AsleepREM`.
    static func isAsleep(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix = "HKCategoryValueSleepAnalysisAsleep".utf8
        guard value.count >= prefix.count else { return false }
        return zip(value, prefix).allSatisfy { $0 == $1 }
    }

    private static func sample(
        _ metric: Metric, _ convert: @escaping @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double?
    ) -> Kind {
        .sample(ActivityDays.Slot(metric), metric, convert: convert)
    }

    private static func unit(_ unit: UnsafeBufferPointer<UInt8>, is name: StaticString) -> Bool {
        HealthDataCollector.equals(unit, name)
    }

    private static let count: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        Self.unit(unit, is: "count") ? value : nil
    }

    private static let kilometres: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        if Self.unit(unit, is: "km") { return value }
        if Self.unit(unit, is: "m") { return value / 1000 }
        if Self.unit(unit, is: "mi") { return value * 1.609_344 }
        if Self.unit(unit, is: "ft") { return value * 0.000_304_8 }
        if Self.unit(unit, is: "yd") { return value * 0.000_914_4 }
        return nil
    }

    private static let minutes: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        if Self.unit(unit, is: "min") { return value }
        if Self.unit(unit, is: "s") { return value / 60 }
        if Self.unit(unit, is: "hr") { return value * 60 }
        return nil
    }

    private static let kilocalories: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        if Self.unit(unit, is: "kcal") || Self.unit(unit, is: "Cal") { return value }
        if Self.unit(unit, is: "kJ") { return value / 4.184 }
        if Self.unit(unit, is: "cal") { return value / 1000 }
        return nil
    }

    private static let litres: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        if Self.unit(unit, is: "mL") { return value / 1000 }
        if Self.unit(unit, is: "L") { return value }
        if Self.unit(unit, is: "fl_oz_us") { return value * 0.029_573_529_562_5 }
        if Self.unit(unit, is: "fl_oz_imp") { return value * 0.028_413_062_5 }
        if Self.unit(unit, is: "cup_us") { return value * 0.236_588_236_5 }
        return nil
    }

    private static let grams: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        if Self.unit(unit, is: "g") { return value }
        if Self.unit(unit, is: "mg") { return value / 1000 }
        if Self.unit(unit, is: "oz") { return value * 28.349_523_125 }
        return nil
    }

    private static let beatsPerMinute: @Sendable (Double, UnsafeBufferPointer<UInt8>) -> Double? = { value, unit in
        Self.unit(unit, is: "count/min") ? value : nil
    }

    /// The number `bytes` write (`1234`, `0.25`, `-3`, `1e3`), read without making a String for the
    /// plain forms the export writes millions of; `nil` when they are no finite number.
    static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var whole: UInt64 = 0
        var digits = 0
        var fraction = 0
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x30 && byte <= 0x39 && digits < 18 {
                whole = whole * 10 + UInt64(byte - 0x30)
                digits += 1
                if inFraction { fraction += 1 }
            } else if byte == UInt8(ascii: ".") && !inFraction {
                inFraction = true
            } else {
                // An exponent, spaces, or more digits than fit: the standard library reads it.
                let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces()
                guard let value = Double(text), value.isFinite else { return nil }
                return value
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(whole) / powersOfTen[fraction]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...18).map { power in
        (0..<power).reduce(1.0) { product, _ in product * 10 }
    }
}
