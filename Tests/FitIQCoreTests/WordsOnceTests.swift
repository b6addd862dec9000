import FitIQLocalization
import FitIQWords
import Testing

@testable import FitIQCore

/// The words said once in FitIQWords: the table of field labels, and what the core returns as data
/// where it once built English (a session whose tokens kept changing, a library that cannot be used).
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

    @Test func tokensThatKeptChangingAreRetriedAndSaidAsBefore() {
        let error = RemoteError.tokensKeptChanging
        #expect(error.isRetryable)
        #expect(error.serverMessage == nil)
        #expect(
            speaking(.english) { error.description }
                == "The server is unavailable (HTTP 401): the session's tokens kept changing; will retry")
        #expect(speaking(.english) { error.message } == "the session's tokens kept changing; will retry")
    }

    @Test func aLibraryThatCannotBeUsedIsSaidWithTheSystemsWordsOrTheFunctionItLacks() {
        let lacking = DynamicLibrary.Missing(
            library: "libz.so.1", package: "libxml2", problem: .lacks(symbol: "xmlInit"))
        #expect(speaking(.english) { lacking.reason } == "it has no xmlInit")
        let said = DynamicLibrary.Problem.notOpened(systemSays: "libxml2.so.2: cannot open shared object file")
        #expect(speaking(.english) { said.description } == "libxml2.so.2: cannot open shared object file")
        #expect(speaking(.english) { DynamicLibrary.Problem.notOpened(systemSays: nil).description } == "dlopen failed")
    }

    @Test func aMissingLibraryIsNamedFromTheSystem() {
        #expect(throws: DynamicLibrary.Missing.self) { try DynamicLibrary("libfitiq-none.so.0", package: "none") }
        do {
            _ = try DynamicLibrary("libfitiq-none.so.0", package: "none")
        } catch {
            guard case .notOpened(let said?) = error.problem else {
                Issue.record("\(error)")
                return
            }
            #expect(said.contains("libfitiq-none.so.0"))
        }
    }
}
