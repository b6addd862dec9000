import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// The screenshots in `screenshots/`, taken from real runs through the same tmux driver as every
/// end-to-end test. Runs only when `FITIQ_SCREENSHOTS` names a folder (`make screenshots`): each
/// screen goes there as `NAME.ans` (its text with colours, `capture-pane -e -N`) and `NAME.size`
/// (`COLUMNS ROWS [CURSOR_X,CURSOR_Y]`), which `scripts/screenshots/render.py` paints to PNG.
@Suite(
    .serialized, .timeLimit(.minutes(5)),
    .enabled(if: ProcessInfo.processInfo.environment["FITIQ_SCREENSHOTS"] != nil, "make screenshots runs these"))
struct ScreenshotTests {
    let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["FITIQ_SCREENSHOTS"] ?? "/nonexistent")

    /// Saves what `tui` shows as `name`.
    func shot(_ tui: TmuxSession, _ name: String) async throws {
        let capture = try await tui.capture()
        try Data(capture.text.utf8).write(to: folder.appendingPathComponent("\(name).ans"))
        let cursor = capture.cursor.map { " \($0.x),\($0.y)" } ?? ""
        try Data("\(capture.width) \(capture.height)\(cursor)\n".utf8).write(
            to: folder.appendingPathComponent("\(name).size"))
    }

    /// From the profile, opens the progress screen (p) on the weight and steps its range (→) from 4
    /// weeks to 3 months to a year, waiting for each range's sentence and the chart's `legend` before
    /// the next key, so no answer for a range left meanwhile is on show.
    func showTheYear(_ tui: TmuxSession, legend: String) async throws {
        try await tui.send("p")
        try await tui.waitFor(all: ["Weight · 4 weeks", legend])
        try await tui.send("Right")
        try await tui.waitFor(all: ["over the last 3 months.", legend])
        try await tui.send("Right")
        try await tui.waitFor(all: ["over the last year.", legend])
    }

    /// The demo account: the profile, the progress screen (a year of weights and its trend), a goal,
    /// the table by week, an inline validation error, the history at 120×40 and the stacked boxes at
    /// 60×20. FITIQ_GRAPHICS: braille whatever the environment says.
    @Test func theDemo() async throws {
        try await EndToEnd.with { e2e in
            let tui = try e2e.openTUI(arguments: ["demo"], extraEnvironment: ["FITIQ_GRAPHICS": "braille"])
            defer { tui.kill() }
            try await tui.waitFor(all: ["Alex Demo", "● synced"])
            try await shot(tui, "profile")

            let legend = "· readings  ⠉ trend"
            try await showTheYear(tui, legend: legend)
            try await shot(tui, "progress")

            // A goal half a year on: its line, the plan, and the day the trend gets there.
            try await tui.send("g")
            try await tui.waitFor("Weight goal")
            let by = CalendarDate(containing: Date(), in: .utc).adding(days: 182)
            try await tui.type("76 \(by)")
            try await tui.send("Enter")
            try await tui.waitFor(all: ["it reaches the goal on", legend, "● synced", "goal"])
            try await shot(tui, "progress-goal")
            try await tui.send("t")
            try await tui.waitFor("Weight · 1 year · by week")
            try await shot(tui, "progress-summary")
            try await tui.send("t", "t")
            try await tui.waitFor(legend)
            try await tui.send("Escape")
            try await tui.waitFor("Enter edit")

            try await tui.send("Tab", "Tab", "Tab", "Tab")
            try await tui.waitFor("›Height")
            try await tui.send("Enter", "C-u")
            try await tui.type("5'13\"")
            try await tui.waitFor("5'13\"")
            try await tui.send("C-s")
            try await tui.waitFor("! Height")
            try await shot(tui, "validation-error")

            // The edit is cancelled before the resize (an Esc and a resize read together lose the Esc).
            try await tui.send("Escape")
            try await tui.waitFor("Enter edit")
            try await tui.resize(width: 120, height: 40)
            try await tui.waitFor("└" + String(repeating: "─", count: 118) + "┘")
            try await shot(tui, "history")

            // A phone's or a split pane's 60×20: the boxes stack and the history keeps its list.
            try await tui.resize(width: 60, height: 20)
            try await tui.waitFor(all: ["┌─ Physical", "? help"])
            try await shot(tui, "small")
        }
    }

    /// The demo's profile in German (FITIQ_LANG): the interface's words and the decimal comma.
    @Test func theDemoInGerman() async throws {
        try await EndToEnd.with { e2e in
            let tui = try e2e.openTUI(
                arguments: ["demo"], extraEnvironment: ["FITIQ_LANG": "de", "FITIQ_GRAPHICS": "braille"])
            defer { tui.kill() }
            try await tui.waitFor(all: ["Alex Demo", "● synchronisiert", "┌─ Verlauf", "Enter ändern", "? Hilfe"])
            try await shot(tui, "profile-de")
        }
    }

    /// The same progress screen with ASCII graphics.
    @Test func theDemoInASCII() async throws {
        try await EndToEnd.with { e2e in
            let tui = try e2e.openTUI(arguments: ["demo"], extraEnvironment: ["FITIQ_GRAPHICS": "ascii"])
            defer { tui.kill() }
            try await tui.waitFor(all: ["Alex Demo", "● synced"])
            try await showTheYear(tui, legend: ". readings  * trend")
            try await shot(tui, "progress-ascii")
        }
    }

    /// The sign-in screen with empty folders; then, signed in and with the server gone, a change
    /// waiting to be sent, in the sync details.
    @Test func signingInAndAChangeWaitingToBeSent() async throws {
        let password = "demo-\(UUID().uuidString)"
        try await EndToEnd.with { e2e in
            let server = try await TestDevServer.start(TestDevServer.configuration(demoPassword: password))
            let tui = try e2e.openTUI(arguments: ["--server", server.url])
            defer { tui.kill() }
            try await tui.waitFor("Sign in to FitIQ")
            try await tui.type("demo@fitiq.dev")
            try await tui.waitFor("demo@fitiq.dev")
            try await tui.send("Tab")
            try await tui.waitUntilCaptured("the cursor in the password field") { capture in
                let rows = TmuxSession.rows(of: capture.text)
                return capture.cursor.map { rows.indices.contains($0.y) && rows[$0.y].contains("Password") } == true
            }
            try await shot(tui, "sign-in")

            try await tui.type(password)
            try await tui.send("Enter")
            try await tui.waitFor(all: ["Alex Demo", "● synced"])
            await server.stop()
            try await tui.send("Enter", "End")
            try await tui.type(" Jr.")
            try await tui.waitFor("Alex Demo Jr.")
            try await tui.send("Enter", "C-s")
            try await tui.waitFor("pending")
            try await tui.send("h")
            try await tui.waitFor(all: ["○ pending", "○ offline"])
            try await shot(tui, "sync-details")
        }
    }
}
