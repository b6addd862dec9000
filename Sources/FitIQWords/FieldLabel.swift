import FitIQCore
import FitIQLocalization

/// The table of field labels: each field a person sees named, written once. The core's ``Field`` (in
/// validation sentences), the editor's boxes and sign-in form, plain mode and `profile show` take
/// their labels from it.
public enum FieldLabel: Sendable, Hashable, CaseIterable {
    case name, bio, unitSystem, language, height, weight, bodyFat, bmi, dateOfBirth, biologicalSex, email, password
    case notes, date, goal, goalDate

    /// The label as it heads a field or a row: `Date of birth`.
    public var text: String {
        switch self {
        case .name: tr("Name")
        case .bio: tr("Bio")
        case .unitSystem: tr("Unit system")
        case .language: tr("Language")
        case .height: tr("Height")
        case .weight: tr("Weight")
        case .bodyFat: tr("Body fat")
        case .bmi: tr("BMI")
        case .dateOfBirth: tr("Date of birth")
        case .biologicalSex: tr("Biological sex")
        case .email: tr("Email")
        case .password: tr("Password")
        case .notes: tr("Notes")
        case .date: tr("Date")
        case .goal: tr("A goal")
        case .goalDate: tr("The goal's date")
        }
    }

    /// The label of the core's `field`.
    public init(_ field: Field) {
        self =
            switch field {
            case .name: .name
            case .bio: .bio
            case .unitSystem: .unitSystem
            case .languageCode: .language
            case .height: .height
            case .weight: .weight
            case .bodyFat: .bodyFat
            case .dateOfBirth: .dateOfBirth
            case .email: .email
            case .password: .password
            case .notes: .notes
            case .date: .date
            case .goal: .goal
            case .goalDate: .goalDate
            }
    }
}

extension Field {
    /// The label a person sees for this field (``FieldLabel``).
    public var label: String { FieldLabel(self).text }

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
