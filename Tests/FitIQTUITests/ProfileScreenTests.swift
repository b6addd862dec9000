import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQTUI

struct ProfileScreenTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func showsBothFormsHistoryAndKeys(width: Int, height: Int) {
        let buffer = screen(profileState(width: width, height: height))
        let text = buffer.lines
        #expect(text[0].hasPrefix(" fitiq-tui · jane@example.com"))
        #expect(text[0].contains("● synced"))
        #expect(text.contains { $0.contains("Profile") && $0.contains("Physical") })
        #expect(text.contains { $0.contains("Name") && $0.contains("Jane Doe") })
        #expect(text.contains { $0.contains("Height") && $0.contains("170.0 cm") })
        #expect(text.contains { $0.contains("Date of birth") && $0.contains("1983-07-20") })
        #expect(text.contains { $0.contains("Height history") })
        #expect(text[height - 1].contains("Ctrl-S save"))
        #expect(buffer.width == width && buffer.height == height)
    }

    /// The same with the `i` key offered (health import available) and without.
    @Test(arguments: [false, true])
    func biologicalSexIsReadOnlyTextFromTheHealthSource(canImportHealth: Bool) {
        var state = profileState()
        state.canImportHealth = canImportHealth
        let lines = screen(state).lines
        let row = lines.firstIndex { $0.contains("Biological sex") } ?? 0
        #expect(lines[row].contains("Female"))
        #expect(lines[row + 1].contains("from health source"))
        // Focus it and press Enter: no edit starts, a message says why.
        state.profile.focus = .biologicalSex
        press([.enter], &state)
        #expect(state.profile.editing == nil)
        #expect(state.message?.text.contains("only from your health data") == true)
        #expect(press(type("Male") + [.control("s")], &state).isEmpty)
    }

    @Test func accountSexAndMissingSexSayWhereTheyComeFrom() {
        // The tag wraps under the value: read the value column of the Physical box from that row down.
        for (width, height) in [(80, 24), (120, 40)] {
            let buffer = screen(
                profileState(width: width, height: height, sex: SourcedBiologicalSex(value: .male, source: .account)))
            let row = buffer.lines.firstIndex { $0.contains("Biological sex") } ?? 0
            let column = width / 2 + 1 + 16
            let tag = (row + 1...row + 3).map { line in
                String(buffer.lines[line].dropFirst(column - 0)).split(separator: "│").first.map(String.init) ?? ""
            }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.contains("─") }.joined(
                separator: " ")
            #expect(buffer.lines[row].contains("Male"))
            #expect(tag == "from account — import health data to confirm", "\(width)×\(height)")
        }
        let missing = screen(profileState(sex: nil)).lines
        #expect(missing.contains { $0.contains("Biological sex") && $0.contains("not set") })
    }

    @Test func tabMovesThroughEveryFieldInOrder() {
        var state = profileState()
        var seen: [ProfileField] = [state.profile.focus]
        for _ in 1..<ProfileField.allCases.count {
            press([.tab], &state)
            seen.append(state.profile.focus)
        }
        #expect(seen == ProfileField.allCases)
        // The history followed the measurements passed: body fat, the last, has no entries, so Tab
        // goes from the last field back to Name.
        #expect(state.historyMetric == .bodyFat)
        press([.tab], &state)
        #expect(state.historySelection == nil)
        #expect(state.profile.focus == .name)
        // Back up to Height, then down past Weight and Body fat to the last field: the history follows
        // each, and Tab from the last field goes into the list shown (the height's, when it is chosen
        // with `l`).
        press([.down, .down, .down, .down], &state)
        #expect(state.historyMetric == .height)
        press([.character("l")], &state)
        #expect(state.historySelection == 0)
        press([.backTab], &state)
        #expect(state.historySelection == nil)
        press([.up, .up, .up, .up, .up], &state)
        #expect(state.profile.focus == .biologicalSex)
        #expect(state.historyMetric == .height)
        press([.tab], &state)
        #expect(state.historySelection == 0)
        press([.tab], &state)
        #expect(state.historySelection == nil)
        #expect(state.profile.focus == .name)
        press([.backTab], &state)
        #expect(state.profile.focus == .biologicalSex)
        press([.up, .up, .up, .up, .up], &state)
        #expect(state.profile.focus == .height)
    }

    @Test func editingNameAndSavingSendsOneMetadataSave() {
        var state = profileState()
        press([.enter, .control("u")] + type("José 李"), &state)
        #expect(state.profile.editing?.editor.text == "José 李")
        let effects = press([.control("s")], &state)
        #expect(
            effects == [.save(.metadata(name: "José 李", bio: "Trail runner", unitSystem: .metric, languageCode: "en"))])
        #expect(state.profile.editing == nil)
    }

    @Test func anInvalidFieldShowsTheRuleAndSendsNothing() {
        var state = profileState()
        state.profile.focus = .height
        press([.enter, .control("u")] + type("5'13\""), &state)
        let effects = press([.control("s")], &state)
        #expect(effects.isEmpty)
        let lines = screen(state).lines
        #expect(
            lines.contains { $0.contains("! Height inches after feet must be") }, "\(lines.joined(separator: "\n"))")
        // Escape cancels the edit; the saved value shows again.
        press([.escape], &state)
        #expect(screen(state).lines.contains { $0.contains("170.0 cm") })
    }

    @Test func typingPastTheLengthLimitSaysWhyTheKeysStop() {
        var state = profileState()
        press([.enter, .control("u")] + type(String(repeating: "n", count: ProfileRules.nameLimit)), &state)
        #expect(state.profile.errors[.name] == nil)
        press(type("n"), &state)
        #expect(state.profile.editing?.editor.text.count == ProfileRules.nameLimit)
        let lines = screen(state).lines
        #expect(
            lines.contains { $0.contains("! Name can be at most 100") }, "\(lines.joined(separator: "\n"))")
        // Deleting one character clears the message; the 100 typed are kept and can be saved.
        press([.backspace], &state)
        #expect(state.profile.errors[.name] == nil)
        #expect(press([.control("s")], &state).count == 1)
    }

    @Test func aSaveThatChangedNothingSaysSoAndDropsTheDraft() {
        var state = profileState()
        state.profile.focus = .height
        press([.enter, .control("u")] + type("181") + [.enter], &state)
        #expect(press([.control("s")], &state) == [.save(.measurement(.height, 181))])

        // The use case found the height already there.
        _ = update(&state, .nothingToSave(.measurement(.height)))

        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Nothing to save.") })
        #expect(!lines.contains { $0.contains("Height saved.") })
        #expect(state.profile.drafts.isEmpty)
    }

    @Test func eachFormSavesOnItsOwn() {
        var state = profileState()
        press([.enter, .control("u")] + type("New") + [.enter], &state)
        state.profile.focus = .height
        press([.enter, .control("u")] + type("181") + [.enter], &state)
        let effects = press([.control("s")], &state)
        #expect(effects.count == 2)
        #expect(effects.contains(.save(.measurement(.height, 181))))
        // The metadata saved; the height's rejection shows under the Physical box only.
        _ = update(&state, .saved(.metadata, error: nil))
        var account = fixtureAccount()
        account.record(.height, 181, measuredAt: fixedNow, source: .manual)
        account.begin(.updatePhysical(PhysicalPatch(heightCm: 181), revision: 1), owner: UUID(), now: fixedNow)
        account.finish(
            .updatePhysical(PhysicalPatch(heightCm: 181), revision: 1), outcome: .rejected("Height is implausible"),
            now: fixedNow, random: 0)
        _ = update(&state, .accountChanged(AccountView(email: "jane@example.com", server: "s", state: account)))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("! Rejected by the server: Height is") })
        #expect(lines[0].contains("! 1 change rejected"))
    }

    @Test func aConflictShowsBothValuesAndIsSettledFromSyncDetails() throws {
        var state = profileState()
        // Without a conflict, `k` in the sync details still moves between fields.
        press([.character("h"), .character("j"), .character("j"), .character("k")], &state)
        #expect(state.profile.focus == ProfileField.allCases[1])
        press([.character("h")], &state)
        var account = fixtureAccount()
        var metadata = try #require(account.profile?.metadata)
        metadata.name = "Jane Here"
        account.editMetadata(metadata, now: fixedNow)
        var remote = TestHarness.serverProfile
        remote.metadata.name = "Jane There\u{1B}[2J"
        account.mergeServerProfile(
            remote, identity: AccountIdentity(userId: "u", email: "jane@example.com"), now: fixedNow)
        _ = update(&state, .accountChanged(AccountView(email: "jane@example.com", server: "s", state: account)))
        #expect(screen(state).lines[0].contains("! 1 conflict · h for details"))

        press([.character("h")], &state)
        let details = screen(state).lines.joined(separator: "\n")
        #expect(details.contains(#"! conflict  name: here "Jane Here", on the server "Jane There"#), "\(details)")
        #expect(!details.contains("\u{1B}"))
        #expect(press([.character("t")], &state) == [.resolveConflict(field: "name", keepLocal: false)])
        #expect(press([.character("k")], &state) == [.resolveConflict(field: "name", keepLocal: true)])
    }

    @Test func unitSystemTogglesAndHeightFollows() {
        var state = profileState()
        state.profile.focus = .unitSystem
        press([.enter], &state)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("imperial *") })
        #expect(lines.contains { $0.contains("5 ft 7 in") })
        #expect(state.hasUnsavedEdits)
    }

    @Test func quittingWithUnsavedEditsAsksFirst() {
        var state = profileState()
        state.profile.focus = .bio
        press([.enter] + type(" and climber") + [.enter], &state)
        #expect(press([.character("q")], &state).isEmpty)
        #expect(state.overlay == .quitPrompt)
        #expect(screen(state).lines.contains { $0.contains("s  save, then quit") })
        press([.character("n")], &state)
        #expect(state.overlay == nil && !state.shouldQuit)
        press([.character("q")], &state)
        let effects = press([.character("s")], &state)
        #expect(
            effects.first
                == .save(
                    .metadata(
                        name: "Jane Doe", bio: "Trail runner and climber", unitSystem: .metric, languageCode: "en")))
        #expect(effects.last == .quit)
        #expect(state.shouldQuit)
    }

    @Test func wideCharactersKeepTheBoxesAligned() {
        let buffer = screen(profileState(bio: "跑步 🏃‍♀️ e\u{301}quipe", name: "李小龍 José"))
        let lines = buffer.lines
        let nameRow = lines.firstIndex { $0.contains("李小龍") } ?? 0
        // The right box's left border sits in column 40 on every row of the boxes.
        for row in 1...nameRow + 3 {
            let cell = buffer[40, row]
            #expect(cell.character == "│" || cell.character == "┌" || cell.character == "└", "row \(row)")
        }
        #expect(DisplayWidth.of(lines[nameRow]) == 80)
    }

    @Test func escapeSequencesInABioAreNeutralised() {
        let buffer = screen(profileState(bio: "evil \u{1B}]0;pwned\u{07}\u{1B}[2Jbio"))
        let text = buffer.cells.map(\.character)
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}"))
        #expect(buffer.lines.contains { $0.contains("evil bio") })
    }

    @Test func aSmallTerminalGetsAClearMessage() {
        // (Below 80×24 until the layout learned to stack; now only below 40×12.)
        let lines = screen(profileState(width: 39, height: 11)).lines
        #expect(lines.contains { $0.contains("Terminal too small: 39×11.") })
        #expect(lines.contains { $0.contains("at least 40×12") })
    }

    @Test func helpOverlayListsTheKeys() {
        var state = profileState()
        press([.character("?")], &state)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Ctrl-S") && $0.contains("save every form") })
        press([.character("x")], &state)
        #expect(state.overlay == nil)
    }

    @Test func historyAndSyncDetailsSwitch() {
        var state = profileState()
        press([.character("h")], &state)
        #expect(screen(state).lines.contains { $0.contains("Sync details") })
        #expect(screen(state).lines.contains { $0.contains("Every change is on the server.") })
        #expect(press([.character("s")], &state) == [.syncNow])
    }

    @Test func titleBarShowsOfflinePendingChanges() {
        var state = profileState()
        var account = fixtureAccount()
        account.record(.height, 181, measuredAt: fixedNow, source: .manual)
        var metadata = account.profile?.metadata ?? ProfileMetadata(name: "x")
        metadata.bio = "offline"
        account.editMetadata(metadata, now: fixedNow)
        show(account, in: &state)
        state.connection = .offline("connection refused")
        #expect(screen(state).lines[0].contains("○ offline · 2 changes pending"))
    }
}
