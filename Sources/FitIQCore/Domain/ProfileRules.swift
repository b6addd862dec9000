#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The rules the client applies before sending anything (CONTRACT.md §8).
public enum ProfileRules {
    public static let nameLimit = 100
    public static let bioLimit = 500
    public static let notesLimit = 500
    public static let minimumAge = 13
    public static let maximumAge = 120

    /// A trimmed, valid name.
    public static func name(_ text: String) throws(ValidationError) -> String {
        try limitedText(text, field: .name, limit: nameLimit, required: true)
    }

    /// A trimmed, valid bio; empty clears it.
    public static func bio(_ text: String) throws(ValidationError) -> String {
        try limitedText(text, field: .bio, limit: bioLimit, required: false)
    }

    /// Trimmed, valid progress notes.
    public static func notes(_ text: String) throws(ValidationError) -> String {
        try limitedText(text, field: .notes, limit: notesLimit, required: false)
    }

    /// A language code in canonical case (`pt-BR`, `es-419`), or `""` to clear it.
    public static func languageCode(_ text: String) throws(ValidationError) -> String {
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty { return "" }
        guard let match = trimmed.wholeMatch(of: /(?<lang>[A-Za-z]{2,3})(?:[-_](?<region>[A-Za-z]{2}|[0-9]{3}))?/)
        else {
            throw .invalidFormat(.languageCode, rule: .languageCode)
        }
        let language = match.lang.lowercased()
        guard let region = match.region else { return language }
        return "\(language)-\(region.uppercased())"
    }

    /// A unit system named in text (`metric`, `imperial`).
    public static func unitSystem(_ text: String) throws(ValidationError) -> UnitSystem {
        guard let units = UnitSystem(rawValue: text.trimmingSpaces().lowercased()) else {
            throw .invalidFormat(.unitSystem, rule: .unitSystem)
        }
        return units
    }

    /// A date of birth for registration: a real date, not in the future, age 13 to 120 on `today`.
    public static func dateOfBirth(_ text: String, today: CalendarDate) throws(ValidationError) -> CalendarDate {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { throw .required(.dateOfBirth) }
        guard trimmed.count == 10, let date = CalendarDate(parsing: trimmed) else {
            throw .invalidFormat(.dateOfBirth, rule: .realDay)
        }
        guard date <= today else { throw .outOfRange(.dateOfBirth, rule: .notInFuture) }
        let age = date.years(until: today)
        guard age >= minimumAge else {
            throw .outOfRange(.dateOfBirth, rule: .minimumAge(minimumAge, age: age))
        }
        guard age <= maximumAge else {
            throw .outOfRange(.dateOfBirth, rule: .maximumAge(maximumAge, age: age))
        }
        return date
    }

    /// A trimmed email address of the form `name@host`.
    public static func email(_ text: String) throws(ValidationError) -> String {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { throw .required(.email) }
        guard !TextSanitizer.containsControls(trimmed), trimmed.wholeMatch(of: /[^@\s]+@[^@\s]+/) != nil else {
            throw .invalidFormat(.email, rule: .email)
        }
        return trimmed
    }

    /// A password: not empty. Never trimmed: spaces may be part of it.
    public static func password(_ text: String) throws(ValidationError) -> String {
        guard !text.isEmpty else { throw .required(.password) }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .controlCharacters(.password)
        }
        return text
    }

    /// Validates every field of a metadata form, returning canonical values or the first error.
    public static func metadata(
        name: String, bio: String?, unitSystem: UnitSystem, languageCode: String?
    ) throws(ValidationError) -> ProfileMetadata {
        ProfileMetadata(
            name: try self.name(name), bio: try bio.map { text throws(ValidationError) in try self.bio(text) },
            preferredUnitSystem: unitSystem,
            languageCode: try languageCode.map { text throws(ValidationError) in try self.languageCode(text) })
    }

    private static func limitedText(
        _ text: String, field: Field, limit: Int, required: Bool
    ) throws(ValidationError) -> String {
        let trimmed = text.trimmingWhitespace()
        if required && trimmed.isEmpty { throw .required(field) }
        guard !TextSanitizer.containsControls(trimmed) else { throw .controlCharacters(field) }
        // U+FFFD stands in for bytes that were not UTF-8 (a terminal or file in another encoding).
        guard !trimmed.unicodeScalars.contains("\u{FFFD}") else {
            throw .invalidFormat(field, rule: .validUTF8)
        }
        // Limits count grapheme clusters: what the user sees.
        guard trimmed.count <= limit else { throw .tooLong(field, limit: limit, count: trimmed.count) }
        return trimmed
    }
}
