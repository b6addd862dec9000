import FitIQCore
import FitIQLocalization
import FitIQWords
import Testing

/// The words said once in FitIQWords: the table of field labels.
struct WordsOnceTests {
    @Test(arguments: Field.allCases)
    func aFieldsLabelIsTheTablesLabel(field: Field) {
        #expect(field.label == FieldLabel(field).text)
    }

    @Test func everyLabelOfTheTableIsItsOwn() {
        let labels = FieldLabel.allCases.map(\.text)
        #expect(Set(labels).count == labels.count, "\(labels)")
        #expect(FieldLabel.dateOfBirth.text == "Date of birth")
        #expect(MeasurementSeries.bmi.label == FieldLabel.bmi.text)
    }

    @Test func labelsAreSaidInTheLanguageInForce() {
        let german = Localizer(
            language: Language(code: "de"), catalog: Catalog(po: "msgid \"Date of birth\"\nmsgstr \"Geburtsdatum\"\n"))
        #expect(speaking(german) { FieldLabel.dateOfBirth.text } == "Geburtsdatum")
        #expect(speaking(german) { Field.dateOfBirth.label } == "Geburtsdatum")
    }
}
