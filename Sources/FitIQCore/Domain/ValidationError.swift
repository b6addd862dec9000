import FitIQLocalization

/// A field of a form or a command whose value can be rejected before anything is sent.
public enum Field: String, Sendable, Codable, CaseIterable {
    case name, bio, unitSystem, languageCode, height, weight, bodyFat, dateOfBirth, email, password, notes, date, goal,
        goalDate

    /// The label a person sees for this field.
    public var label: String {
        switch self {
        case .name: tr("Name")
        case .bio: tr("Bio")
        case .unitSystem: tr("Unit system")
        case .languageCode: tr("Language")
        case .height: tr("Height")
        case .weight: tr("Weight")
        case .bodyFat: tr("Body fat")
        case .dateOfBirth: tr("Date of birth")
        case .email: tr("Email")
        case .password: tr("Password")
        case .notes: tr("Notes")
        case .date: tr("Date")
        case .goal: tr("A goal")
        case .goalDate: tr("The goal's date")
        }
    }

    /// The label inside a sentence (`Remove this weight?`): lower case in English, as each language
    /// writes the noun there.
    public var labelInSentence: String {
        switch self {
        case .name: trc("in a sentence", "name")
        case .bio: trc("in a sentence", "bio")
        case .unitSystem: trc("in a sentence", "unit system")
        case .languageCode: trc("in a sentence", "language")
        case .height: trc("in a sentence", "height")
        case .weight: trc("in a sentence", "weight")
        case .bodyFat: trc("in a sentence", "body fat")
        case .dateOfBirth: trc("in a sentence", "date of birth")
        case .email: trc("in a sentence", "email")
        case .password: trc("in a sentence", "password")
        case .notes: trc("in a sentence", "notes")
        case .date: trc("in a sentence", "date")
        case .goal: trc("in a sentence", "goal")
        case .goalDate: trc("in a sentence", "goal date")
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
            tr("{field} is required: it must not be empty or only spaces.", ["field": field.label])
        case .tooLong(let field, let limit, let count):
            tr(
                "{field} must be at most {limit} characters (it has {count}).",
                ["field": field.label, "limit": String(limit), "count": String(count)])
        case .controlCharacters(let field):
            tr("{field} must not contain control characters or escape sequences.", ["field": field.label])
        case .invalidFormat(let field, let rule), .outOfRange(let field, let rule):
            // The rule names what is expected (`must look like name@example.com`), in the same language.
            tr("{field} {rule}.", ["field": field.label, "rule": rule])
        }
    }
}
