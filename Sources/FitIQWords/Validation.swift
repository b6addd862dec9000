import FitIQCore
import FitIQLocalization

extension ValidationError: CustomStringConvertible {
    /// The sentence naming the field and the rule: `Weight must be between 2 and 635 kg (…).`
    public var description: String {
        switch self {
        case .required(let field):
            tr("{field} is required: it must not be empty or only spaces.", ["field": field.label])
        case .tooLong(let field, let limit, let count):
            tr(
                "{field} must be at most {limit} characters (it has {count}).",
                ["field": field.label, "limit": String(limit), "count": String(count)])
        case .controlCharacters(let field):
            tr("{field} must not contain control characters or escape sequences.", ["field": field.label])
        case .invalidFormat(let field, let rule), .outOfRange(let field, let rule):
            // The rule names what is expected (`must look like name@example.com`), in the same language.
            if Metric.all.contains(where: { $0.field == field }) {
                // A metric's label may be plural (Schritte, pas, pasos) where the rule's verb is singular:
                // languages that need it make "the value" the subject.
                trc("a measurement's rule", "{field} {rule}.", ["field": field.label, "rule": rule.words(for: field)])
            } else {
                tr("{field} {rule}.", ["field": field.label, "rule": rule.words(for: field)])
            }
        }
    }
}

extension ValidationRule {
    /// What the value of `field` must be, as the end of a sentence that starts with the field:
    /// `must look like name@example.com`.
    public func words(for field: Field) -> String {
        switch self {
        case .languageCode:
            tr("must be 2–3 letters, optionally followed by a region of 2 letters or 3 digits (en, pt-BR, es-419)")
        case .unitSystem: tr("must be metric or imperial")
        case .realDay: tr("must be a real date written YYYY-MM-DD")
        case .day: tr("must be a date written YYYY-MM-DD")
        case .notInFuture: tr("cannot be in the future")
        case .minimumAge(let minimum, let age):
            tr(
                "must make you at least {minimum} years old (you would be {age})",
                ["minimum": String(minimum), "age": String(age)])
        case .maximumAge(let maximum, let age):
            tr(
                "must make you at most {maximum} years old (you would be {age})",
                ["maximum": String(maximum), "age": String(age)])
        case .fromToday(let today): tr("must be today ({today}) or later", ["today": today.description])
        case .email: tr("must look like name@example.com")
        case .validUTF8: tr("must be valid UTF-8 text (some bytes were not)")
        case .inchesBelowAFoot(let inches):
            tr(
                "inches after feet must be below 12 ({inches} given); write 6'1\" for 5'13\"",
                ["inches": DecimalText.decimal(DecimalText.plain(inches))])
        case .goalMetric(let given, let allowed):
            tr(
                "can be set for {metrics}, not {name}",
                ["metrics": allowed.joined(separator: ", "), "name": TextSanitizer.sanitize(given)])
        case .clearedGoalMetric(let given, let allowed):
            tr(
                "can be cleared for {metrics}, not {name}",
                ["metrics": allowed.joined(separator: ", "), "name": TextSanitizer.sanitize(given)])
        case .noDateForDailyGoal: tr("is not set for a daily goal: it is met or not each day")
        case .timeOfDay: tr("must be a time written HH:MM (07:30), or a day and a time (2026-11-30 07:30)")
        case .measurementText:
            switch field {
            case .height: tr("must be a number with an optional unit, e.g. 180.5 cm, 1.8 m, 5'11\" or 71 in")
            case .weight: tr("must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb")
            case .bodyFat: tr("must be a percentage, e.g. 18.5 or 18.5 %")
            case .steps: tr("must be a whole number, e.g. 4000 or 4,000 steps")
            case .distance: tr("must be a number with an optional unit, e.g. 5.2 km, 800 m or 3.1 mi")
            case .activeMinutes: tr("must be minutes, e.g. 45, 45 min or 1h30m")
            case .caloriesOut, .caloriesIn: tr("must be a number with an optional unit, e.g. 2300 kcal or 9600 kJ")
            case .water: tr("must be a number with an optional unit, e.g. 0.25 l, 250 ml or 8 fl oz")
            case .protein, .carbs, .fat: tr("must be grams, e.g. 30 or 30 g")
            case .sleep: tr("must be hours, e.g. 7.5, 7h30m or 7:30")
            case .restingHeartRate: tr("must be beats a minute, e.g. 58 or 58 bpm")
            case .mood: tr("must be a whole number from 1 to 10, e.g. 7")
            default: tr("must be a number")
            }
        case .allowedRange:
            switch field {
            case .height: tr("must be between 50 and 300 cm (1 ft 8 in and 9 ft 10 in)")
            case .weight: tr("must be between 2 and 635 kg (4.4 and 1,400 lb)")
            case .bodyFat: tr("must be between 1 and 75 %")
            default:
                if let metric = Metric.recorded.first(where: { $0.field == field }) {
                    metric.rangeSentence
                } else {
                    tr("is outside its allowed range")
                }
            }
        }
    }
}

extension Metric {
    /// The end of the range rule's sentence: `must be a whole number between 1 and 100,000`, `must be
    /// between 0.01 and 10 l`.
    var rangeSentence: String {
        let bound = { (value: Double) in DecimalText.grouped(value, places: DecimalText.places(value)) }
        let values = [
            "low": bound(allowedRange.lowerBound), "high": bound(allowedRange.upperBound),
            "unit": unit.isEmpty || self == .steps ? "" : " " + UnitNames.shown(unit),
        ]
        return self == .steps || self == .mood
            ? tr("must be a whole number between {low} and {high}{unit}", values)
            : tr("must be between {low} and {high}{unit}", values)
    }
}
