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
            tr("{field} {rule}.", ["field": field.label, "rule": rule.words(for: field)])
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
                "can be set for {first} or {second}, not {name}",
                [
                    "first": allowed.first ?? "", "second": allowed.last ?? "",
                    "name": TextSanitizer.sanitize(given),
                ])
        case .clearedGoalMetric(let given, let allowed):
            tr(
                "can be cleared for {first} or {second}, not {name}",
                [
                    "first": allowed.first ?? "", "second": allowed.last ?? "",
                    "name": TextSanitizer.sanitize(given),
                ])
        case .measurementText:
            switch field {
            case .height: tr("must be a number with an optional unit, e.g. 180.5 cm, 1.8 m, 5'11\" or 71 in")
            case .weight: tr("must be a number with an optional unit, e.g. 72.4 kg, 160 lb or 11 st 4 lb")
            case .bodyFat: tr("must be a percentage, e.g. 18.5 or 18.5 %")
            default: tr("must be a number")
            }
        case .allowedRange:
            switch field {
            case .height: tr("must be between 50 and 300 cm (1 ft 8 in and 9 ft 10 in)")
            case .weight: tr("must be between 2 and 635 kg (4.4 and 1,400 lb)")
            case .bodyFat: tr("must be between 1 and 75 %")
            default: tr("is outside its allowed range")
            }
        }
    }
}
