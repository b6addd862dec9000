#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The day's activity, food, sleep and the readings beside the body: every other `/progress` type the
/// FitIQ backend records, each a row of the metric table.
extension Metric {
    /// Steps walked, a day's amount: `4000`, `4,000 steps`; whole, 1–100,000 an entry.
    public static let steps = Metric(
        id: "steps", type: "steps", kind: .dailyAmount, field: .steps, unit: "steps", valueKey: "steps",
        allowedRange: 1...100_000, minimumChartSpan: 1000, goalBand: nil, imperialUnit: nil, shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in
            try AmountText.parse(
                text, field: .steps, units: [.init(["steps", "step"], 1)], groupsDigits: true, whole: true)
        },
        formatValue: { value, _ in DecimalText.grouped(value, places: 0) + " " + UnitNames.shown("steps") })

    /// Distance walked or run, a day's amount in km: `5.2`, `5.2 km`, `800 m`, `3.1 mi`; 0–300 km an entry.
    public static let distance = Metric(
        id: "distance", type: "distance_km", kind: .dailyAmount, field: .distance, unit: "km", valueKey: "distanceKm",
        allowedRange: 0...300, minimumChartSpan: 1, goalBand: nil, imperialUnit: ("mi", AmountText.kilometresPerMile),
        shownStep: 0.01 * AmountText.kilometresPerMile,
        parseValue: { text, units throws(ValidationError) in
            let kilometres = AmountText.Unit(["km", "kms", "kilometre", "kilometres", "kilometer", "kilometers"], 1)
            let miles = AmountText.Unit(["mi", "mile", "miles"], AmountText.kilometresPerMile)
            let metres = AmountText.Unit(["m", "metre", "metres", "meter", "meters"], 0.001)
            return try AmountText.parse(
                text, field: .distance, metric: kilometres, imperial: miles, also: metres, in: units)
        },
        formatValue: { value, units in
            units == .imperial
                ? DecimalText.shown(value / AmountText.kilometresPerMile, places: 2) + " mi"
                : DecimalText.grouped(value, places: DecimalText.places(value)) + " km"
        })

    /// Minutes of activity, a day's amount: `45`, `45 min`, `1h30m`, `1:30`; 1–1,440 an entry.
    public static let activeMinutes = Metric(
        id: "active-minutes", type: "active_minutes", kind: .dailyAmount, field: .activeMinutes, unit: "min",
        valueKey: "activeMinutes", allowedRange: 1...1440, minimumChartSpan: 10, goalBand: nil, imperialUnit: nil,
        shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in
            try AmountText.duration(text, field: .activeMinutes, inHours: false)
        },
        formatValue: { value, _ in DecimalText.grouped(value, places: 0) + " min" })

    /// Energy burned, a day's amount in kcal: `2300`, `2,300 kcal`, `9600 kJ`; 1–20,000 an entry.
    public static let caloriesOut = energy(
        id: "calories-out", type: "calories_out", field: .caloriesOut, key: "caloriesOut")
    /// Energy eaten, a day's amount in kcal, typed as ``caloriesOut`` is.
    public static let caloriesIn = energy(id: "calories-in", type: "calories_in", field: .caloriesIn, key: "caloriesIn")

    /// Water drunk, a day's amount in litres: `0.25`, `0.25 l`, `250 ml`, `8 fl oz`; 0.01–10 l an entry.
    public static let water = Metric(
        id: "water", type: "water_liters", kind: .dailyAmount, field: .water, unit: "l", valueKey: "waterLiters",
        allowedRange: 0.01...10, minimumChartSpan: 0.5, goalBand: nil,
        imperialUnit: ("fl oz", AmountText.litresPerFluidOunce), shownStep: 0.1 * AmountText.litresPerFluidOunce,
        parseValue: { text, units throws(ValidationError) in
            let litres = AmountText.Unit(["l", "litre", "litres", "liter", "liters"], 1)
            let ounces = AmountText.Unit(["fl oz", "floz", "oz", "fl. oz"], AmountText.litresPerFluidOunce)
            let millilitres = AmountText.Unit(["ml", "millilitre", "millilitres", "milliliter", "milliliters"], 0.001)
            return try AmountText.parse(
                text, field: .water, metric: litres, imperial: ounces, also: millilitres, in: units)
        },
        formatValue: { value, units in
            units == .imperial
                ? DecimalText.shown(value / AmountText.litresPerFluidOunce, places: 1) + " fl oz"
                : DecimalText.grouped(value, places: DecimalText.places(value)) + " l"
        })

    /// Protein eaten, a day's amount in grams: `30`, `30 g`; 0–2,000 an entry.
    public static let protein = grams(id: "protein", type: "protein_g", field: .protein, key: "proteinG")
    /// Carbohydrates eaten, a day's amount in grams.
    public static let carbs = grams(id: "carbs", type: "carbs_g", field: .carbs, key: "carbsG")
    /// Fat eaten, a day's amount in grams.
    public static let fat = grams(id: "fat", type: "fat_g", field: .fat, key: "fatG")

    /// Hours slept, one a night on the day it ends: `7.5`, `7.5 h`, `7h30m`, `7:30`; 0–24.
    public static let sleep = Metric(
        id: "sleep", type: "sleep_hours", kind: .night, field: .sleep, unit: "h", valueKey: "sleepHours",
        allowedRange: 0...24, minimumChartSpan: 1, goalBand: nil, imperialUnit: nil, shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in try AmountText.duration(text, field: .sleep, inHours: true) },
        formatValue: { value, _ in AmountText.tenths(value) + " h" })

    /// The heart's rate at rest, a reading in beats a minute: `58`, `58 bpm`; 20–250.
    public static let restingHeartRate = Metric(
        id: "resting-heart-rate", type: "resting_heart_rate", kind: .reading, field: .restingHeartRate, unit: "bpm",
        valueKey: "restingHeartRate", allowedRange: 20...250, minimumChartSpan: 5, goalBand: 2, imperialUnit: nil,
        shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in
            try AmountText.parse(text, field: .restingHeartRate, units: [.init(["bpm"], 1)])
        },
        formatValue: { value, _ in DecimalText.shown(value, places: 0) + " bpm" })

    /// How the day felt, a reading from 1 to 10, whole: `7`, `7/10`.
    public static let mood = Metric(
        id: "mood", type: "mood_score", kind: .reading, field: .mood, unit: "", valueKey: "moodScore",
        allowedRange: 1...10, minimumChartSpan: 2, goalBand: nil, imperialUnit: nil, shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in
            try AmountText.parse(text, field: .mood, units: [.init(["/ 10", "/10"], 1)], whole: true)
        },
        formatValue: { value, _ in DecimalText.shown(value, places: 0) + "/10" })

    private static func energy(id: String, type: String, field: Field, key: String) -> Metric {
        Metric(
            id: id, type: type, kind: .dailyAmount, field: field, unit: "kcal", valueKey: key,
            allowedRange: 1...20_000, minimumChartSpan: 100, goalBand: nil, imperialUnit: nil, shownStep: 0,
            parseValue: { text, _ throws(ValidationError) in
                let kilocalories = AmountText.Unit(["kcal", "cal", "calories", "kilocalories"], 1)
                let kilojoules = AmountText.Unit(["kj", "kilojoules"], 1 / AmountText.kilojoulesPerKilocalorie)
                return try AmountText.parse(text, field: field, units: [kilocalories, kilojoules], groupsDigits: true)
            },
            formatValue: { value, _ in DecimalText.grouped(value, places: 0) + " kcal" })
    }

    private static func grams(id: String, type: String, field: Field, key: String) -> Metric {
        Metric(
            id: id, type: type, kind: .dailyAmount, field: field, unit: "g", valueKey: key,
            allowedRange: 0...2000, minimumChartSpan: 10, goalBand: nil, imperialUnit: nil, shownStep: 0,
            parseValue: { text, _ throws(ValidationError) in
                try AmountText.parse(text, field: field, units: [.init(["g", "gram", "grams"], 1)], groupsDigits: true)
            },
            formatValue: { value, _ in AmountText.tenths(value) + " g" })
    }
}

/// How a unit's symbol is shown: the symbols of the metric table (`kg`, `km`) are notation, but a
/// unit that is a word (`steps`) is said in the language in force; FitIQWords' `speaking(_:)` sets it.
public enum UnitNames {
    /// How the language in force says a unit. A task-local value of a bare function type crashed the
    /// release build as it was bound (`swift_task_localValuePush` read no type for it), so the
    /// function is wrapped in a struct.
    public struct Wording: Sendable {
        let say: @Sendable (String) -> String

        public init(_ say: @escaping @Sendable (String) -> String) {
            self.say = say
        }
    }

    @TaskLocal public static var wording = Wording { $0 }

    /// `unit` as the language in force says it.
    public static func shown(_ unit: String) -> String {
        wording.say(unit)
    }
}

/// What a person types for an amount or a duration: a number (a negative one too, refused by the
/// range) with one of the metric's units, or the first unit when none is written.
enum AmountText {
    static let kilometresPerMile = 1.609_344
    static let litresPerFluidOunce = 0.029_573_529_562_5
    static let kilojoulesPerKilocalorie = 4.184

    /// `value` to a tenth, without the `.0` of a whole number once rounded (`7.5`, `8`, `0` for 0.03):
    /// what is shown is typed back to the same display.
    static func tenths(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return DecimalText.grouped(rounded, places: rounded == rounded.rounded() ? 0 : 1)
    }

    /// A unit a value may be written in, and how many of the metric's unit one of it is.
    struct Unit {
        var names: [String]
        var size: Double

        init(_ names: [String], _ size: Double) {
            self.names = names
            self.size = size
        }
    }

    /// The value of `text` in the metric's unit; a bare number is in `units`' first unit.
    ///
    /// - Parameters:
    ///   - groupsDigits: a whole number written with its thousands grouped (`4,000`, `4.000`) is read as
    ///     one number: for metrics whose values are thousands and never fractions of one (steps, kcal).
    ///   - whole: a value with a fraction is refused with the range rule.
    static func parse(
        _ text: String, field: Field, units: [Unit], groupsDigits: Bool = false, whole: Bool = false
    ) throws(ValidationError) -> Double {
        var input = text.trimmingWhitespace().lowercased()
        guard !input.isEmpty else { throw .required(field) }
        if groupsDigits, let grouped = input.prefixMatch(of: #/-?\d{1,3}(?:[,.  ]\d{3})+(?!\d)/#) {
            let digits = grouped.output.filter { $0.isNumber || $0 == "-" }
            input = digits + input[grouped.range.upperBound...]
        }
        input = input.replacing(",", with: ".")
        guard let match = input.wholeMatch(of: #/(?<n>-?(?:\d+(?:\.\d+)?|\.\d+))\s*(?<unit>[a-z/][a-z/. 0-9]*)?/#),
            let number = Double(match.n)
        else { throw .invalidFormat(field, rule: .measurementText) }
        let written = match.unit.map { String($0).trimmingWhitespace() }
        guard let unit = written.map({ name in units.first { $0.names.contains(name) } }) ?? units.first else {
            throw .invalidFormat(field, rule: .measurementText)
        }
        let value = number * unit.size
        if whole, value != value.rounded() { throw .outOfRange(field, rule: .allowedRange) }
        return value
    }

    /// ``parse(_:field:units:groupsDigits:whole:)`` for a metric with a unit in each system: a bare
    /// number is in the unit of `system` (`3.1` is miles in imperial), and any of the three may be written.
    static func parse(
        _ text: String, field: Field, metric: Unit, imperial: Unit, also other: Unit, in system: UnitSystem
    ) throws(ValidationError) -> Double {
        try parse(
            text, field: field, units: system == .imperial ? [imperial, metric, other] : [metric, imperial, other])
    }

    /// A duration in hours (`inHours`) or minutes: a bare number (`7.5`), hours and minutes (`7h30m`,
    /// `7 h 30 min`, `1.5h`, `90 min`) or a clock's `7:30`.
    static func duration(_ text: String, field: Field, inHours: Bool) throws(ValidationError) -> Double {
        var input = text.trimmingWhitespace().lowercased()
        // Minutes are whole and may run to thousands (`1,440 min`).
        if !inHours, let grouped = input.prefixMatch(of: #/\d{1,3}(?:[,.  ]\d{3})+(?!\d)/#) {
            input = grouped.output.filter(\.isNumber) + input[grouped.range.upperBound...]
        }
        input = input.replacing(",", with: ".")
        guard !input.isEmpty else { throw .required(field) }
        let scale = inHours ? 1.0 / 60 : 1.0
        if let match = input.wholeMatch(of: #/(?<h>-?\d+):(?<m>[0-5]\d)/#), let hours = Double(match.h),
            let minutes = Double(match.m)
        {
            return (hours * 60 + (hours < 0 ? -minutes : minutes)) * scale
        }
        if let match = input.wholeMatch(of: #/(?<n>-?(?:\d+(?:\.\d+)?|\.\d+))/#), let number = Double(match.n) {
            return number
        }
        let pattern =
            #/(?:(?<h>-?\d+(?:\.\d+)?)\s*(?:h|hr|hrs|hour|hours))?\s*(?:(?<m>\d+(?:\.\d+)?)\s*(?:m|min|mins|minute|minutes))?/#
        guard let match = input.wholeMatch(of: pattern), match.h != nil || match.m != nil else {
            throw .invalidFormat(field, rule: .measurementText)
        }
        let hours = match.h.flatMap { Double($0) } ?? 0
        let minutes = match.m.flatMap { Double($0) } ?? 0
        return (hours * 60 + (hours < 0 ? -minutes : minutes)) * scale
    }
}
