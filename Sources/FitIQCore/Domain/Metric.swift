#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Something logged over time as `/progress` entries: a body measurement (height, weight, body fat),
/// a day's amount (steps, water, food), a night's sleep, or a reading (resting heart rate, mood).
///
/// Everything that differs between them is in this table: the backend `type`, its ``Kind``, the field
/// named in messages, the unit values are kept in, how a person types and reads them in each unit
/// system, and the allowed range. Code that handles entries (the history, the outbox, corrections, the
/// imports, the commands, Today) takes a metric rather than naming one, so a new kind of progress is a
/// new entry here.
public struct Metric: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// How a metric's entries make a day's value.
    public enum Kind: String, Sendable, Hashable {
        /// The latest entry stands and a trend smooths them (weight, resting heart rate, mood).
        case reading
        /// A day's value is the sum of that local day's entries (two glasses of water are two entries).
        case dailyAmount = "daily amount"
        /// One a night, belonging to the local day it ends on (sleep).
        case night
    }

    /// The name in commands and cache keys: `height`, `weight`, `body-fat`, `steps`, `water`.
    public let id: String
    /// The `type` of its `/progress` entries.
    public let type: String
    /// How its entries make a day's value.
    public let kind: Kind
    /// The field named in validation messages.
    public let field: Field
    /// The unit values are kept and sent in: `cm`, `kg`, `%`.
    public let unit: String
    /// The key of a value in JSON output (`heightCm`, `weightKg`, `bodyFatPercent`); CSV columns are
    /// the same in snake case (``csvColumn``).
    public let valueKey: String
    /// The values allowed, in ``unit``.
    public let allowedRange: ClosedRange<Double>
    /// The least a chart's vertical range spans, in ``unit``: a few millimetres of noise never fill it.
    public let minimumChartSpan: Double
    /// Half the band a reached goal becomes (1.5 kg, 1 %); `nil` for a metric goals are not set for.
    public let goalBand: Double?
    /// The imperial unit and how many of ``unit`` one of it is (`in`, 2.54), or `nil` when the metric
    /// is the same in either unit system.
    let imperialUnit: (name: String, size: Double)?
    /// The coarsest step a value is shown in, in ``unit``: a bound shown rounded (2 kg as `4.4 lb`, 635 kg
    /// as about `1,400 lb`) is typed back as shown, and taken as the bound.
    let shownStep: Double
    let parseValue: @Sendable (String, UnitSystem) throws(ValidationError) -> Double
    let formatValue: @Sendable (Double, UnitSystem) -> String

    public var description: String { id }

    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// Every metric, in the order forms, commands and Today list them: the body, then the day's
    /// activity, food, sleep and the other readings.
    public static let all: [Metric] = [
        .height, .weight, .bodyFat, .steps, .distance, .activeMinutes, .caloriesOut, .water, .caloriesIn, .protein,
        .carbs, .fat, .sleep, .restingHeartRate, .mood,
    ]

    /// The body measurements of the physical form.
    public static let body: [Metric] = [.height, .weight, .bodyFat]

    /// Every type the server records: ``all``, which this client logs, and ``recordedBMI``, which it
    /// derives and never logs, but pulls, keeps and exports as the server holds it (entries another
    /// client posted), and posts only back from its own export.
    public static let recorded: [Metric] = all + [.recordedBMI]

    /// Whether people log it (``all``): every metric but ``recordedBMI``.
    public var isLogged: Bool { self != .recordedBMI }

    /// Whether a day's goal is met by reaching the target (amounts and nights); a reading's goal is a
    /// band to reach and stay in (``goalBand``).
    public var hasDailyGoal: Bool { kind != .reading }

    /// Whether goals are set for it: a day's amount, a night, or a reading with a ``goalBand``.
    public var takesGoals: Bool { hasDailyGoal || goalBand != nil }

    /// The imperial unit and how many of ``unit`` one of it is, exactly (`lb`, 0.45359237); `nil` for
    /// a metric that is the same in either unit system.
    public var imperial: (unit: String, size: Double)? { imperialUnit.map { ($0.name, $0.size) } }

    /// `height_cm`, `weight_kg`, `body_fat_percent`.
    public var csvColumn: String {
        valueKey.reduce(into: "") { column, character in
            if character.isUppercase { column += "_" + character.lowercased() } else { column.append(character) }
        }
    }

    /// `value` (in ``unit``) as a number in `units`' unit, to a hundredth, with the unit's name:
    /// `(70.87, "in")`; the metric's own unit when `units` is `nil` or metric.
    public func value(_ value: Double, in units: UnitSystem?) -> (value: Double, unit: String) {
        guard units == .imperial, let imperialUnit else { return (value, unit) }
        return ((value / imperialUnit.size * 100).rounded() / 100, imperialUnit.name)
    }

    /// The allowed range for people: `50–300 cm`, `1–100,000 steps`, `0.01–10 l`.
    public var rangeText: String {
        DecimalText.grouped(allowedRange.lowerBound, places: DecimalText.places(allowedRange.lowerBound)) + "–"
            + DecimalText.grouped(allowedRange.upperBound, places: DecimalText.places(allowedRange.upperBound))
            + (unit.isEmpty ? "" : " " + UnitNames.shown(unit))
    }

    /// The metric of a `/progress` entry type, any the server records (``recorded``: `bmi` too).
    public static func ofType(_ type: String) -> Metric? {
        recorded.first { $0.type == type }
    }

    /// The metric a command logs by its name (`height`, `weight`, `body-fat`): one of ``all``.
    public static func named(_ id: String) -> Metric? {
        all.first { $0.id == id }
    }

    /// Parses what a person typed into ``unit``, or throws a ``ValidationError`` naming the field and
    /// the rule. A written unit always wins; a bare number is in the unit system's unit.
    public func parse(_ text: String, unitSystem: UnitSystem) throws(ValidationError) -> Double {
        // Kept to a hundredth of the unit: finer than any value is shown, and a pound or a stone in
        // kilograms does not carry twelve digits into the history.
        let value: Double
        do {
            value = (try parseValue(text, unitSystem) * 100).rounded() / 100
        } catch .invalidFormat(_, _) where text.trimmingWhitespace().hasPrefix("-") {
            // A negative number is a value, refused by the range: `-5 kg` is not a form to learn.
            _ = try parseValue(String(text.trimmingWhitespace().dropFirst()), unitSystem)
            throw .outOfRange(field, rule: .allowedRange)
        }
        guard value.isFinite else { throw .outOfRange(field, rule: .allowedRange) }
        if allowedRange.contains(value) { return value }
        if value < allowedRange.lowerBound, allowedRange.lowerBound - value <= shownStep {
            return allowedRange.lowerBound
        }
        if value > allowedRange.upperBound, value - allowedRange.upperBound <= shownStep {
            return allowedRange.upperBound
        }
        throw .outOfRange(field, rule: .allowedRange)
    }

    /// Throws the range rule when `value` (in ``unit``, from a program rather than typed) is outside
    /// the allowed range.
    public func check(_ value: Double) throws(ValidationError) {
        guard value.isFinite, allowedRange.contains(value) else { throw rangeError }
    }

    /// The rule a value outside the allowed range breaks.
    public var rangeError: ValidationError { .outOfRange(field, rule: .allowedRange) }

    /// `value` (in ``unit``) as a person reads it in `unitSystem`. Any value is shown, never trapped
    /// on: values also come from the server and the cache, unchecked.
    public func format(_ value: Double, unitSystem: UnitSystem) -> String {
        formatValue(value, unitSystem)
    }

    /// The value an edit asks for (`proposed`, parsed once), or `nil` when it shows as `current` does
    /// in `unitSystem`: typing the value already there changes nothing, and switching units never
    /// makes a value drift.
    public func change(from current: Double?, to proposed: Double, unitSystem: UnitSystem) -> Double? {
        if let current, format(current, unitSystem: unitSystem) == format(proposed, unitSystem: unitSystem) {
            return nil
        }
        return proposed
    }
}

extension Metric {
    /// Height in centimetres (``Height`` parses and formats it); also the profile's current height.
    public static let height = Metric(
        id: "height", type: ProgressEntry.heightType, kind: .reading, field: .height, unit: "cm", valueKey: "heightCm",
        allowedRange: Height.allowedRange,
        minimumChartSpan: 2, goalBand: nil, imperialUnit: ("in", 2.54),
        shownStep: 0,
        parseValue: { text, units throws(ValidationError) in try Height.parse(text, unitSystem: units) },
        formatValue: { value, units in Height.format(value, unitSystem: units) })

    /// Body weight in kilograms: `72.4`, `72.4 kg`, `160 lb`, `160.4 lbs`, `11 st 4 lb`; shown to 0.1 kg
    /// or 0.1 lb.
    public static let weight = Metric(
        id: "weight", type: "weight", kind: .reading, field: .weight, unit: "kg", valueKey: "weightKg",
        allowedRange: 2...635,
        minimumChartSpan: 1, goalBand: 1.5,
        imperialUnit: ("lb", Weight.kilogramsPerPound),
        shownStep: 0.1 * Weight.kilogramsPerPound,
        parseValue: { text, units throws(ValidationError) in try Weight.parse(text, unitSystem: units) },
        formatValue: { value, units in Weight.format(value, unitSystem: units) })

    /// Body fat in percent of body weight, the same in either unit system: `18.5`, `18.5 %`; shown to 0.1 %.
    public static let bodyFat = Metric(
        id: "body-fat", type: "body_fat_percentage", kind: .reading, field: .bodyFat, unit: "%",
        valueKey: "bodyFatPercent",
        allowedRange: 1...75,
        minimumChartSpan: 1, goalBand: 1, imperialUnit: nil,
        shownStep: 0.1,
        parseValue: { text, _ throws(ValidationError) in try BodyFat.parse(text) },
        formatValue: { value, _ in DecimalText.shown(value, places: 1) + " %" })

    /// A BMI entry the server holds (another client posted it), in kg/m², shown to 0.1 as the derived BMI
    /// is. Not one of ``all``: the BMI on the profile and the charts is derived from the weights and
    /// heights (``BodyMassIndex``), and these entries are kept beside it, never mixed in.
    public static let recordedBMI = Metric(
        id: "bmi", type: "bmi", kind: .reading, field: .bmi, unit: "kg/m²", valueKey: "bmi", allowedRange: 1...250,
        minimumChartSpan: 1, goalBand: nil, imperialUnit: nil, shownStep: 0,
        parseValue: { text, _ throws(ValidationError) in
            try AmountText.parse(text, field: .bmi, units: [.init(["kg/m²", "kg/m2"], 1)])
        },
        formatValue: { value, _ in DecimalText.shown(value, places: 1) })
}

/// Weight entry and display; weights are kept in kilograms.
enum Weight {
    static let kilogramsPerPound = 0.453_592_37
    static let poundsPerStone = 14.0

    static func parse(_ text: String, unitSystem: UnitSystem) throws(ValidationError) -> Double {
        let input = MeasurementText.normalized(text)
        guard !input.isEmpty else { throw .required(.weight) }
        guard let kilograms = kilograms(from: input, unitSystem: unitSystem) else {
            throw .invalidFormat(.weight, rule: .measurementText)
        }
        return kilograms
    }

    static func format(_ kilograms: Double, unitSystem: UnitSystem) -> String {
        switch unitSystem {
        case .metric: DecimalText.shown(kilograms, places: 1) + " kg"
        case .imperial: DecimalText.shown(kilograms / kilogramsPerPound, places: 1) + " lb"
        }
    }

    private static func kilograms(from input: String, unitSystem: UnitSystem) -> Double? {
        if let match = input.wholeMatch(of: #/(?<n>\d+(?:\.\d+)?|\.\d+)\s*(?<unit>kg|kgs|kilos?|lb|lbs|pounds?|st)?/#) {
            guard let value = Double(match.n) else { return nil }
            switch match.unit.map(String.init) {
            case nil: return unitSystem == .metric ? value : value * kilogramsPerPound
            case "st": return value * poundsPerStone * kilogramsPerPound
            case let unit? where unit.hasPrefix("k"): return value
            default: return value * kilogramsPerPound
            }
        }
        // Stones and pounds together: 11 st 4 lb, 11st 4, 11 st 4.5 lbs. Pounds must be below 14.
        guard
            let match = input.wholeMatch(
                of: #/(?<st>\d+)\s*st\s*(?<lb>\d+(?:\.\d+)?)\s*(?:lb|lbs|pounds?)?/#),
            let stones = Double(match.st), let pounds = Double(match.lb), pounds < poundsPerStone
        else { return nil }
        return (stones * poundsPerStone + pounds) * kilogramsPerPound
    }
}

/// Body fat entry; kept in percent.
enum BodyFat {
    static func parse(_ text: String) throws(ValidationError) -> Double {
        let input = MeasurementText.normalized(text)
        guard !input.isEmpty else { throw .required(.bodyFat) }
        guard let match = input.wholeMatch(of: #/(?<n>\d+(?:\.\d+)?|\.\d+)\s*%?/#), let value = Double(match.n) else {
            throw .invalidFormat(.bodyFat, rule: .measurementText)
        }
        return value
    }
}

/// What measurement parsers share: what a person types, tidied.
enum MeasurementText {
    /// Trimmed, lower case, with a decimal comma read as a point (`72,4 kg`).
    static func normalized(_ text: String) -> String {
        text.trimmingWhitespace().lowercased().replacing(",", with: ".")
    }
}
