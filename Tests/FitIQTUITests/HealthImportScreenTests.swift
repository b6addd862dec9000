import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQTUI

/// The `i` key: path prompt, progress, errors and result.
struct HealthImportScreenTests {
    func importState(width: Int = 80, height: Int = 24) -> AppState {
        var state = profileState(width: width, height: height, sex: nil)
        state.canImportHealth = true
        return state
    }

    @Test func theKeyIsAbsentUntilImportIsAvailable() {
        var state = profileState(sex: nil)
        #expect(press([.character("i")], &state).isEmpty)
        #expect(state.overlay == nil)
        #expect(!screen(state).lines.joined().contains("i import"))
        #expect(screen(importState()).lines.joined().contains("i import"))
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func asksForAPathAndStartsTheImport(width: Int, height: Int) {
        var state = importState(width: width, height: height)
        press([.character("i")], &state)
        #expect(screen(state).lines.contains { $0.contains("The export to import") })
        #expect(press([.enter], &state).isEmpty)
        #expect(
            screen(state).lines.contains { $0.contains("Path: type where the export's file, zip or folder is.") }
        )
        let effects = press(type("~/Downloads/export.zip") + [.enter], &state)
        #expect(effects == [.importHealth(path: "~/Downloads/export.zip")])
        guard case .importing = state.overlay else {
            Issue.record("no progress after Enter: \(String(describing: state.overlay))")
            return
        }
    }

    @Test func showsProgressAndStaysResponsive() {
        var state = importState()
        press([.character("i")] + type("export.zip") + [.enter], &state)
        _ = update(&state, .healthImport(.reading(0.45)))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Reading export.zip") })
        #expect(lines.contains { $0.contains("45 %") && $0.contains("█") })
        // Typing does nothing while it reads; Esc asks to stop; the clock still moves the screen.
        #expect(press(type("abc"), &state).isEmpty)
        #expect(press([.escape], &state) == [.cancelImport])
        _ = update(&state, .tick(fixedNow.addingTimeInterval(60)))
        #expect(state.now == fixedNow.addingTimeInterval(60))
    }

    @Test func aFailureReopensThePromptWithThePathAndTheReason() {
        var state = importState()
        press([.character("i")] + type("~/nope.zip") + [.enter], &state)
        _ = update(&state, .healthImport(.failed("Path: no file at /root/nope.zip.\u{1B}[2J")))
        guard case .importPrompt(let path, let error) = state.overlay else {
            Issue.record("the prompt did not come back")
            return
        }
        #expect(path.text == "~/nope.zip")
        #expect(error?.contains("\u{1B}") == false)
        #expect(screen(state).lines.contains { $0.contains("Path: no file at /root/nope.zip.") })
        press([.escape], &state)
        #expect(state.overlay == nil)
    }

    @Test func theResultIsShownUntilAKey() {
        var state = importState()
        press([.character("i")] + type("export.zip") + [.enter], &state)
        let summary = ["Biological sex Female from the health source; sending it to the server.", "Heights: 52 found."]
        _ = update(&state, .healthImport(.finished(summary)))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Heights: 52 found.") })
        #expect(lines.contains { $0.contains("Health data imported") })
        press([.character("x")], &state)
        #expect(state.overlay == nil)
        #expect(state.message?.text == "Health data imported.")
    }

    @Test func progressAfterTheOverlayClosedIsIgnored() {
        var state = importState()
        _ = update(&state, .healthImport(.finished(["late"])))
        #expect(state.overlay == nil)
    }

    @Test func theHealthDateOfBirthIsShownBesideTheProfiles() throws {
        var state = importState(width: 120, height: 40)
        var account = try #require(state.account)
        var profile = try #require(account.profile)
        var health = profile.healthSync
        health.healthDateOfBirth = CalendarDate(year: 1983, month: 7, day: 21)
        profile = profile.updatingHealthSync(health)
        account.profile = profile
        state.account = account
        let text = screen(state).lines.joined(separator: "\n")
        #expect(text.contains("1983-07-20"))
        #expect(text.contains("1983-07-21"))
    }
}

extension HealthImportScreenTests {
    /// Another app's export shows what it would add before anything is written: Enter imports it, Esc
    /// drops it and says so.
    @Test func aPreviewWaitsForEnterAndEscImportsNothing() {
        var state = importState()
        press([.character("i")], &state)
        #expect(press(type("~/takeout.zip") + [.enter], &state) == [.importHealth(path: "~/takeout.zip")])
        _ = update(&state, .healthImport(.preview(["Weights: 2 read, 2 new, 0 already there.\u{1B}[2J"])))
        let shown = screen(state).lines
        #expect(shown.contains { $0.contains("Import: what was found") })
        #expect(shown.contains { $0.contains("Weights: 2 read, 2 new, 0 already there.") })
        #expect(shown.contains { $0.contains("Enter import") })
        #expect(!shown.joined().contains("\u{1B}"))

        #expect(press([.enter], &state) == [.confirmImport])
        guard case .importing = state.overlay else {
            Issue.record("expected the import running, got \(String(describing: state.overlay))")
            return
        }
        _ = update(&state, .healthImport(.preview(["Weights: 1 read, 1 new, 0 already there."])))
        #expect(press([.escape], &state) == [.declineImport])
        #expect(state.overlay == nil)
        #expect(screen(state).lines.joined().contains("Nothing was imported."))
    }
}
