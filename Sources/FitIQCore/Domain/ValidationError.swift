/// A field of a form or a command whose value can be rejected before anything is sent.
public enum Field: String, Sendable, Codable, CaseIterable {
    case name, bio, unitSystem, languageCode, height, weight, bodyFat, dateOfBirth, email, password, notes, date, goal,
        goalDate

    /// The label a person sees for this field.
    public var label: String {
        switch self {
        case .name: "Name"
        case .bio: "Bio"
        case .unitSystem: "Unit system"
        case .languageCode: "Language"
        case .height: "Height"
        case .weight: "Weight"
        case .bodyFat: "Body fat"
        case .dateOfBirth: "Date of birth"
        case .email: "Email"
        case .password: "Password"
        case .notes: "Notes"
        case .date: "Date"
        case .goal: "A goal"
        case .goalDate: "The goal's date"
        }
    }
}

/// Why a value was refused; the description names the field and the rule.
public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field is empty (or only spaces) but must have a value.
    case required(Field)
    /// The field has more characters than allowed (counted as the user sees them).
    case tooLong(Field, limit: Int, count: Int)
    /// The field holds control characters or escape sequences.
    case controlCharacters(Field)
    /// The text does not have the expected form; `rule` says which form is expected.
    case invalidFormat(Field, rule: String)
    /// The value is outside its allowed range; `rule` says which range.
    case outOfRange(Field, rule: String)

    /// The field the error is about.
    public var field: Field {
        switch self {
        case .required(let field), .tooLong(let field, _, _), .controlCharacters(let field),
            .invalidFormat(let field, _), .outOfRange(let field, _):
            field
        }
    }

    public var description: String {
        switch self {
        case .required(let field):
            "\(field.label) is required: it must not be empty or only spaces."
        case .tooLong(let field, let limit, let count):
            "\(field.label) must be at most \(limit) characters (it has \(count))."
        case .controlCharacters(let field):
            "\(field.label) must not contain control characters or escape sequences."
        case .invalidFormat(let field, let rule), .outOfRange(let field, let rule):
            "\(field.label) \(rule)."
        }
    }
}
