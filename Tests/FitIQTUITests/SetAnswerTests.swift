import FitIQCore
import FitIQTestBasics
import Testing

@testable import FitIQTUI

/// `set FIELD VALUE`, the one function behind the editor's `:set` and plain mode's `set`: what it
/// drafts and the sentence it answers with.
struct SetAnswerTests {
    static var view: AccountView? { profileState().account }

    @Test func aNewValueIsDraftedAndSaidAsItWillBeSaved() {
        var edits = ProfileEdits()
        let answer = edits.draft(.weight, "72.4", over: Self.view, canImport: true)
        #expect(answer == SetAnswer(sentence: "Weight will be 72.4 kg once you save.", isMistake: false))
        #expect(edits.drafts[.weight] == "72.4")
    }

    @Test func theSavedValueAgainDraftsNothing() {
        var edits = ProfileEdits()
        let answer = edits.draft(.name, "Jane Doe", over: Self.view, canImport: true)
        #expect(answer == SetAnswer(sentence: "Name is already Jane Doe; nothing to save for it.", isMistake: false))
        #expect(edits.drafts.isEmpty)
    }

    @Test func aBrokenRuleIsAMistakeAndDraftsNothing() {
        var edits = ProfileEdits()
        let answer = edits.draft(.weight, "9000", over: Self.view, canImport: true)
        #expect(answer.isMistake)
        #expect(answer.sentence.hasPrefix("Weight must be between"), "\(answer.sentence)")
        #expect(edits.drafts.isEmpty)
    }

    @Test func aReadOnlyFieldSaysWhereItsValueComesFrom() {
        var edits = ProfileEdits()
        for canImport in [true, false] {
            let answer = edits.draft(.biologicalSex, "male", over: Self.view, canImport: canImport)
            #expect(
                answer == SetAnswer(sentence: readOnlyReason(.biologicalSex, canImport: canImport), isMistake: true))
        }
        #expect(edits.draft(.bmi, "22", over: Self.view, canImport: true).isMistake)
        #expect(edits.draft(.dateOfBirth, "1990-01-01", over: Self.view, canImport: true).isMistake)
        #expect(edits.drafts.isEmpty)
    }
}
