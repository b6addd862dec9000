import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQTUI

/// The `:` line: plain mode's commands in the editor, through the same parser.
struct CommandLineTests {
    /// `:` then `text` typed, as keys.
    @discardableResult
    static func command(_ text: String, _ state: inout AppState, enter: Bool = true) -> [Effect] {
        press([.character(":")] + type(text) + (enter ? [.enter] : []), &state)
    }

    /// The row of the screen that starts with the `:` prompt.
    static func promptRow(_ state: AppState) -> String? {
        screen(state).lines.last { $0.hasPrefix(":") }
    }

    @Test func setPutsADraftIntoTheFormAndSaveSavesIt() throws {
        var state = profileState(width: 100, height: 30)
        Self.command("set weight 72.4", &state, enter: false)
        #expect(Self.promptRow(state)?.hasPrefix(":set weight 72.4") == true)
        #expect(press([.enter], &state).isEmpty)
        #expect(state.commandLine == nil)
        #expect(state.profile.drafts[.weight] == "72.4")
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Weight") && $0.contains("72.4 *") }, "marked unsaved, as typed")
        #expect(lines.contains { $0.contains("Weight will be 72.4 kg once you save.") })
        let effects = Self.command("save", &state)
        #expect(effects.count == 1)
        guard case .save(.measurement(.weight, let value, _, _, _))? = effects.first else {
            Issue.record("\(effects)")
            return
        }
        #expect(abs(value - 72.4) < 0.001)
    }

    @Test func aMistakeIsSaidWithItsRuleAndTheLineStaysToBeCorrected() throws {
        var state = profileState(width: 100, height: 30)
        Self.command("set weight 9000", &state)
        #expect(state.commandLine?.text == "set weight 9000")
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("Weight") == true, "\(state.message?.text ?? "")")
        #expect(state.profile.drafts[.weight] == nil)
        // Corrected in place: the old text is still there to edit.
        press([.backspace, .backspace, .backspace, .backspace] + type("72"), &state)
        press([.enter], &state)
        #expect(state.commandLine == nil)
        #expect(state.profile.drafts[.weight] == "72")

        for (line, said) in [
            ("nonsense 3", "nonsense is not a command."),
            ("set biological-sex male", "Biological sex comes only from your health"),
            ("trend weight 2d", "(2d is neither)"), ("history naps", "Say which history"),
            ("goal bmi 22", "not bmi"), ("goal weight 70 2020-01-01", "today (2026-11-18) or later"),
        ] {
            var other = profileState(width: 100, height: 30)
            Self.command(line, &other)
            #expect(other.commandLine?.text == line, "\(line)")
            #expect(other.message?.text.contains(said) == true, "\(line): \(other.message?.text ?? "")")
            #expect(other.message?.isError == true)
        }
    }

    @Test func theOtherCommandsActAtOnce() {
        var state = profileState(width: 100, height: 30)
        #expect(Self.command("trend weight 3m --by week", &state) == [.loadProgress(.metric(.weight))])
        #expect(state.screen == .progress)
        #expect(state.progress.range == .threeMonths)
        #expect(state.progress.table == .week)
        // The line opens on the progress screen too.
        #expect(Self.command("history weight", &state).isEmpty)
        #expect(state.screen == .profile)
        #expect(state.profile.focus == .weight)
        #expect(state.historyMetric == .weight)
        #expect(Self.command("sync", &state) == [.syncNow])
        #expect(Self.command("undo", &state) == [.undo])
        #expect(Self.command("goal body-fat clear", &state) == [.clearGoal(.bodyFat)])
        #expect(Self.command("import ~/export.zip", &state) == [.importHealth(path: "~/export.zip")])
        state.overlay = nil
        Self.command("status", &state)
        #expect(state.lower == .syncDetails)
        Self.command("help", &state)
        #expect(state.overlay == .help)
        let help = KeyTableTests.helpText()
        #expect(help.contains("set FIELD VALUE changes a field"))
        #expect(help.contains("Command line (:)"))
    }

    @Test func tabCompletesAndTheArrowsRecallEarlierLines() {
        var state = profileState(width: 100, height: 30)
        Self.command("se", &state, enter: false)
        press([.tab], &state)
        #expect(state.commandLine?.text == "set ")
        press(type("w") + [.tab], &state)
        #expect(state.commandLine?.text == "set weight ")
        press([.escape], &state)
        #expect(state.commandLine == nil)

        Self.command("s", &state, enter: false)
        press([.tab], &state)
        #expect(state.commandLine?.text == "s", "several fit: the common part")
        #expect(state.message?.text == "show  set  save  sync  status")
        press([.escape], &state)
        Self.command("trend b", &state, enter: false)
        press([.tab], &state)
        #expect(state.commandLine?.text == "trend b")
        #expect(state.message?.text == "body-fat  bmi")
        press(type("m") + [.tab] + type("1") + [.tab], &state)
        #expect(state.commandLine?.text == "trend bmi 1y ")
        press([.escape], &state)

        Self.command("sync", &state)
        Self.command("undo", &state)
        Self.command("", &state, enter: false)
        press([.up], &state)
        #expect(state.commandLine?.text == "undo")
        press([.up], &state)
        #expect(state.commandLine?.text == "sync")
        press([.up], &state)
        #expect(state.commandLine?.text == "sync", "the oldest stays")
        press([.down], &state)
        #expect(state.commandLine?.text == "undo")
        press([.down], &state)
        #expect(state.commandLine?.text == "")
    }

    @Test func theLineTakesKeysItselfAndAPasteGoesIntoIt() {
        var state = profileState(width: 100, height: 30)
        Self.command("", &state, enter: false)
        // q, s, p and u are text here, not the form's keys.
        press(type("quspt"), &state)
        #expect(state.commandLine?.text == "quspt")
        #expect(!state.shouldQuit)
        #expect(state.screen == .profile)
        _ = update(&state, .input(.paste("ile")))
        #expect(state.commandLine?.text == "qusptile")
        // At 40×12 it still fits, above the footer.
        var small = profileState(width: 40, height: 12)
        Self.command("set name Ana", &small, enter: false)
        let lines = screen(small).lines
        #expect(lines[10].hasPrefix(":set name Ana"))
        #expect(lines[11].contains("Enter run"))
    }
}

/// The parser both front ends use.
struct PromptCommandTests {
    @Test func itReadsPlainModesLanguage() {
        #expect(PromptCommand.parse("set weight 72.4 kg") == .success(.set(.weight, "72.4 kg")))
        #expect(PromptCommand.parse("  SAVE ") == .success(.save))
        #expect(PromptCommand.parse("exit") == .success(.quit))
        #expect(PromptCommand.parse("history") == .success(.history(.height)))
        #expect(PromptCommand.parse("history body-fat") == .success(.history(.bodyFat)))
        #expect(PromptCommand.parse("trend") == .success(.trend(.metric(.weight), .fourWeeks, nil)))
        #expect(PromptCommand.parse("trend 1y bmi --by month") == .success(.trend(.bmi, .year, .month)))
        #expect(PromptCommand.parse("trend --by day") == .failure(.trendGrouping))
        #expect(PromptCommand.parse("goal") == .success(.goals))
        #expect(PromptCommand.parse("goal weight") == .success(.goal(.weight)))
        #expect(PromptCommand.parse("goal weight Clear") == .success(.clearGoal(.weight)))
        #expect(
            PromptCommand.parse("goal weight 165 lb 2027-06-01")
                == .success(.setGoal("weight", target: "165 lb", by: "2027-06-01")))
        #expect(PromptCommand.parse("goal height") == .failure(.goalWhich))
        #expect(PromptCommand.parse("goal bmi clear") == .failure(.goalWhich))
        #expect(PromptCommand.parse("import") == .failure(.importWhich))
        #expect(PromptCommand.parse("set") == .failure(.setWhat))
        #expect(PromptCommand.parse("") == .failure(.empty))
        #expect(PromptCommand.parse("\u{1B}[31mred") == .failure(.notACommand("\u{1B}[31mred")))
        #expect(!PromptProblem.notACommand("\u{1B}[31mred").description.contains("\u{1B}"))
    }

    @Test func everyCommandWordCompletesAndEveryCompletionParses() {
        for word in PromptCommand.words {
            #expect(PromptCommand.completions(of: String(word.prefix(2))).contains(word))
        }
        for field in PromptCommand.completions(of: "set ") {
            #expect(PromptCommand.parse("set \(field) x") != .failure(.setWhat), "\(field)")
        }
        for word in PromptCommand.completions(of: "trend ") where word != "--by" {
            if case .failure(let problem) = PromptCommand.parse("trend \(word)") { Issue.record("\(word): \(problem)") }
        }
    }
}
