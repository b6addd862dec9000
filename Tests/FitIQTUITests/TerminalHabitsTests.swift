import FitIQCore
import Testing

@testable import FitIQTUI

/// What a terminal user expects: pastes are text, Ctrl-L and Ctrl-Z, j/k, word keys, the user's editor.
struct TerminalHabitsTests {
    @Test func aMultiLinePasteIntoTheBioIsOneLineAndRunsNoCommand() {
        var state = profileState()
        press([.tab, .enter, .control("u")], &state)
        let effects = update(&state, .input(.paste("Runner from Porto.\nLoves hills.\tq x h")))
        #expect(effects.isEmpty)
        #expect(state.overlay == nil)
        #expect(state.lower == .history)
        #expect(state.profile.editing?.editor.text == "Runner from Porto. Loves hills. q x h")
        #expect(state.message?.text == "Pasted as one line: line breaks and tabs became spaces.")
        press([.enter], &state)
        #expect(state.profile.drafts[.bio] == "Runner from Porto. Loves hills. q x h")
    }

    @Test func controlCharactersInAPasteAreDroppedAndTheLimitHolds() {
        var state = profileState()
        press([.enter, .control("u")], &state)
        _ = update(&state, .input(.paste("Ana\u{1B}[2J " + String(repeating: "n", count: 120))))
        let name = state.profile.editing?.editor.text ?? ""
        #expect(name.count == 100)
        #expect(name.hasPrefix("Ana[2J "))
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("control characters were dropped") == true)
        #expect(state.profile.errors[.name] == "Name can be at most 100 characters; no more can be typed.")
    }

    @Test func aPasteOutsideAnEditIsIgnoredWithAHint() {
        var state = profileState()
        let before = state.profile
        let effects = update(&state, .input(.paste("q")))
        #expect(effects.isEmpty)
        #expect(!state.shouldQuit && state.overlay == nil)
        #expect(state.profile == before)
        #expect(state.message?.text == "Press Enter on a field first to paste into it.")
    }

    @Test func ctrlLRepaintsAndCtrlZSuspendsWithoutTouchingDrafts() {
        var state = profileState()
        press([.enter, .control("u")] + type("Draft name"), &state)
        let form = state.profile
        #expect(press([.control("l")], &state) == [.repaint])
        #expect(press([.control("z")], &state) == [.suspend])
        #expect(update(&state, .input(.repaint)) == [.repaint])
        #expect(state.profile == form)
    }

    @Test func jAndKMoveOutsideAnEditAndTypeInsideOne() {
        var state = profileState()
        press([.character("j"), .character("j")], &state)
        #expect(state.profile.focus == .unitSystem)
        press([.character("k")], &state)
        #expect(state.profile.focus == .bio)
        press([.enter, .control("u")] + type("jk"), &state)
        #expect(state.profile.editing?.editor.text == "jk")
    }

    @Test func wordKeysInAField() {
        var field = TextField("Trail runner from Porto")
        field.handle(.control("w"))
        #expect(field.text == "Trail runner from ")
        field.handle(.wordLeft)
        field.handle(.wordLeft)
        #expect(field.cursor == 6)
        field.handle(.wordRight)
        #expect(field.cursor == 12)
        field.handle(.control("w"))
        #expect(field.text == "Trail  from ")
    }

    @Test func eOnTheBioOpensTheUsersEditorAndItsTextIsCheckedLikeTypedText() {
        var state = profileState(bio: "Trail runner")
        press([.tab], &state)
        #expect(press([.character("e")], &state) == [.editExternally(.bio, text: "Trail runner")])
        _ = update(&state, .externalEdit(.bio, .edited("Trail runner.\nLoves hills.")))
        #expect(state.profile.drafts[.bio] == "Trail runner. Loves hills.")
        #expect(state.profile.editing == nil)
        #expect(state.message?.text == "From your editor: line breaks and tabs became spaces.")

        // Too long: the text stays in the field with the rule, nothing is lost.
        _ = update(&state, .externalEdit(.bio, .edited(String(repeating: "b", count: 501))))
        #expect(state.profile.editing?.editor.text.count == 501)
        #expect(state.profile.errors[.bio] == "Bio must be at most 500 characters (it has 501).")
    }

    @Test func aMissingOrFailingEditorLeavesTheDraftAsItWas() {
        var state = profileState(bio: "Trail runner")
        press([.tab], &state)
        let before = state.profile
        _ = update(&state, .externalEdit(.bio, .failed("No editor is set: set $VISUAL or $EDITOR.")))
        #expect(state.profile == before)
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("$EDITOR") == true)
    }
}

/// Small truths on screen: the age beside the date of birth, and when health data was last imported
/// and from which file.
struct SmallTruthsTests {
    @Test func theAgeStandsBesideTheDateOfBirth() {
        let lines = screen(profileState()).lines
        #expect(lines.contains { $0.contains("Date of birth  1983-07-20 · age 43") })
    }

    @Test func theLastImportSaysWhenAndFromWhichFile() {
        var state = profileState(width: 120, height: 40)
        guard var account = state.account, var profile = account.profile else {
            Issue.record("no profile")
            return
        }
        var health = profile.healthSync
        health.lastHealthSyncAt = fixedNow
        health.lastImportFileName = "export.zip"
        profile = profile.updatingHealthSync(health)
        account.profile = profile
        state.account = account
        #expect(screen(state).lines.contains { $0.contains("imported 2026-11-18 from export.zip") })
    }
}

/// The history list takes the focus: d removes an entry after asking, e corrects it through a checked
/// field, u undoes.
struct HistoryFocusTests {
    func historyFocused() -> AppState {
        var state = profileState()
        // Height (Name, Bio, Unit system, Language, Height), then `l` for its list.
        press(Array(repeating: .down, count: 4) + [.character("l")], &state)
        #expect(state.historyMetric == .height)
        return state
    }

    @Test func dRemovesTheChosenEntryAfterAsking() {
        var state = historyFocused()
        press([.down], &state)
        #expect(state.historySelection == 1)
        #expect(screen(state).lines.contains { $0.contains("›2026-10-19  170.5 cm") })
        press([.character("d")], &state)
        #expect(screen(state).lines.contains { $0.contains("Remove this height?") })
        #expect(press([.character("n")], &state) == [])
        press([.character("d")], &state)
        #expect(press([.character("y")], &state) == [.deleteEntry(.height, id: "e1")])
    }

    @Test func eCorrectsThroughACheckedField() {
        var state = historyFocused()
        press([.character("e"), .control("u")] + type("5'13\"") + [.enter], &state)
        guard case .correctEntry(_, _, _, _, let error?)? = state.overlay else {
            Issue.record("the rule should show: \(String(describing: state.overlay))")
            return
        }
        #expect(error.contains("inches after feet must be below 12"))
        press([.control("u")], &state)
        #expect(press(type("171.5") + [.enter], &state) == [.correctEntry(.height, id: "e0", value: 171.5)])
        #expect(state.overlay == nil)
    }

    @Test func uUndoesAndEscapeLeavesTheList() {
        var state = historyFocused()
        #expect(press([.character("u")], &state) == [.undo])  // the list keeps u: undo a removal at once
        #expect(state.historySelection == 0)
        press([.escape], &state)
        #expect(state.historySelection == nil)
        #expect(press([.character("u")], &state) == [.undo])
    }
}
