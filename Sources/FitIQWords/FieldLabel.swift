import FitIQCore
import FitIQLocalization

/// The table of field labels: each field a person sees named, written once. The core's ``Field`` (in
/// validation sentences), the editor's boxes and sign-in form, plain mode and `profile show` take
/// their labels from it.
public enum FieldLabel: Sendable, Hashable, CaseIterable {
    case name, bio, unitSystem, language, height, weight, bodyFat, bmi, dateOfBirth, biologicalSex, email, password
    case notes, date, goal, goalDate, time
    case steps, distance, activeMinutes, caloriesOut, caloriesIn, water, protein, carbs, fat, sleep, restingHeartRate,
        mood

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
        case .time: tr("Time")
        case .steps: tr("Steps")
        case .distance: tr("Distance")
        case .activeMinutes: tr("Active minutes")
        case .caloriesOut: tr("Calories burned")
        case .caloriesIn: tr("Calories eaten")
        case .water: tr("Water")
        case .protein: tr("Protein")
        case .carbs: tr("Carbohydrates")
        case .fat: tr("Fat")
        case .sleep: tr("Sleep")
        case .restingHeartRate: tr("Resting heart rate")
        case .mood: tr("Mood")
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
            case .time: .time
            case .steps: .steps
            case .distance: .distance
            case .activeMinutes: .activeMinutes
            case .caloriesOut: .caloriesOut
            case .caloriesIn: .caloriesIn
            case .water: .water
            case .protein: .protein
            case .carbs: .carbs
            case .fat: .fat
            case .sleep: .sleep
            case .restingHeartRate: .restingHeartRate
            case .mood: .mood
            case .bmi: .bmi
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
        case .time: trc("in a sentence", "time")
        case .steps: trc("in a sentence", "steps")
        case .distance: trc("in a sentence", "distance")
        case .activeMinutes: trc("in a sentence", "active minutes")
        case .caloriesOut: trc("in a sentence", "calories burned")
        case .caloriesIn: trc("in a sentence", "calories eaten")
        case .water: trc("in a sentence", "water")
        case .protein: trc("in a sentence", "protein")
        case .carbs: trc("in a sentence", "carbohydrates")
        case .fat: trc("in a sentence", "fat")
        case .sleep: trc("in a sentence", "sleep")
        case .restingHeartRate: trc("in a sentence", "resting heart rate")
        case .mood: trc("in a sentence", "mood")
        case .bmi: trc("in a sentence", "BMI")
        }
    }
}
