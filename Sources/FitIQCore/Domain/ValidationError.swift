#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A field of a form or a command whose value can be rejected before anything is sent.
public enum Field: String, Sendable, Codable, CaseIterable {
    case name, bio, unitSystem, languageCode, height, weight, bodyFat, dateOfBirth, email, password, notes, date, goal,
        goalDate
    case steps, distance, activeMinutes, caloriesOut, caloriesIn, water, protein, carbs, fat, sleep, restingHeartRate,
        mood
    /// A BMI the server records (imported back from an export; never typed).
    case bmi
    /// The time of day an entry is logged at (`--at`).
    case time
}

/// Why a value was refused, as data: the field, the rule and the values. FitIQWords says it, naming the
/// field and the rule, in the language in force.
public enum ValidationError: Error, Equatable, Sendable {
    /// The field is empty (or only spaces) but must have a value.
    case required(Field)
    /// The field has more characters than allowed (counted as the user sees them).
    case tooLong(Field, limit: Int, count: Int)
    /// The field holds control characters or escape sequences.
    case controlCharacters(Field)
    /// The text does not have the expected form; `rule` says which form is expected.
    case invalidFormat(Field, rule: ValidationRule)
    /// The value is outside its allowed range; `rule` says which range.
    case outOfRange(Field, rule: ValidationRule)

    /// The field the error is about.
    public var field: Field {
        switch self {
        case .required(let field), .tooLong(let field, _, _), .controlCharacters(let field),
            .invalidFormat(let field, _), .outOfRange(let field, _):
            field
        }
    }
}

/// What a refused value should have been: a form it lacks or a range it leaves, with the values the
/// sentence names.
public enum ValidationRule: Sendable, Hashable {
    /// A language code: 2–3 letters, optionally a region (`en`, `pt-BR`, `es-419`).
    case languageCode
    /// `metric` or `imperial`.
    case unitSystem
    /// A real date written `YYYY-MM-DD` (a date of birth).
    case realDay
    /// A date written `YYYY-MM-DD`.
    case day
    /// A day that is not after today.
    case notInFuture
    /// An age of at least `minimum` years (it would be `age`).
    case minimumAge(Int, age: Int)
    /// An age of at most `maximum` years (it would be `age`).
    case maximumAge(Int, age: Int)
    /// A day from `today` on.
    case fromToday(CalendarDate)
    /// `name@example.com`.
    case email
    /// Text that was UTF-8 (bytes that were not became U+FFFD).
    case validUTF8
    /// A measurement typed as a number with an optional unit, as the field's examples show.
    case measurementText
    /// Inches after feet below 12 (`5'13"`); `given` is the inches typed.
    case inchesBelowAFoot(given: Double)
    /// The field's allowed range (a measurement's).
    case allowedRange
    /// A goal is set for one of `allowed` (metric ids), not `given`.
    case goalMetric(given: String, allowed: [String])
    /// A daily goal (steps, water, sleep) has no date: it is met or not each day.
    case noDateForDailyGoal
    /// A time of day written `HH:MM`, or a day and a time (`2026-11-30 07:30`).
    case timeOfDay
    /// A goal is cleared for one of `allowed` (metric ids), not `given`.
    case clearedGoalMetric(given: String, allowed: [String])
}
