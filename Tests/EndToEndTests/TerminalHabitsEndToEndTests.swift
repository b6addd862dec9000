import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// The editor in a real terminal (tmux) as people use it over SSH: pasting, suspending, their own
/// editor, small and changing window sizes.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TerminalHabitsEndToEndTests {
    @Test func aMultiLinePasteIntoTheBioIsSavedAsOneLineAndRunsNoCommand() async throws {
        try await withEndToEnd { e2e, server in
            try await withEditor(server, in: e2e) { tui in

                try await tui.send("Tab", "Enter")
                try await tui.waitFor("Enter confirm")
                try await tui.send("C-u")
                try await tui.paste("Runner from Porto.\nLoves hills. x q h\n")
                let pasted = "Runner from Porto. Loves hills. x q h"
                // The field scrolls to its end while it is edited.
                try await tui.waitFor(all: [
                    "Loves hills. x q h", "Pasted as one line: line breaks and tabs became spaces.",
                ])
                try await tui.send("Enter", "C-s")
                let saved = try await tui.waitUntil("the bio saved and synced, nothing else opened") {
                    $0.showsSaved("Bio", "Runner from Porto.")
                        && $0.title.contains("● synced")
                }
                #expect(!saved.contains("Unsaved edits"))
                #expect(!saved.contains("Sync details"))
                #expect(!saved.contains("Discard"))
                #expect(try await server.snapshot().bio == pasted)
            }
        }
    }

    /// A connection that drops where no SIGHUP comes (the editor started under `nohup`) ends the editor
    /// by its input's end. Before, it read nothing in a loop and kept a core busy until killed.
    @Test func aTerminalThatGoesAwayWithoutSIGHUPEndsTheEditor() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let tui = try e2e.openTUI(
                arguments: [], extraEnvironment: ["FITIQ_SERVER": server.url], ignoringHangUp: true)
            defer { tui.kill() }
            try await waitForProfile(tui)
            let editors = ProcessTree.descendants(of: tui.panePID).filter { ProcessTree.name(of: $0) == "fitiq-tui" }
            #expect(editors.count == 1, "\(tui.processReport())")
            // Once the pane is gone the editor is no longer under it, where `kill()` looks: ended here.
            defer { ProcessTree.reap(editors, within: .zero) }

            _ = try await tui.hangUp()

            for editor in editors {
                // A hang guard: the end comes at the editor's next wait, well under a second.
                #expect(await ProcessTree.ended(editor, within: .seconds(60)), "fitiq-tui \(editor) still runs")
            }
        }
    }

    @Test func ctrlZGivesTheShellBackAndFgRepaintsTheEditorWithItsDraft() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let (shell, command) = try e2e.openShell(server: server)
            defer { shell.kill() }
            try await shell.waitUntil("the shell's prompt") { $0.endsWithPrompt }
            try await stopWithCtrlZAndResume(shell, command: command)
            // A stop signal from outside (`kill -TSTP`) gives the terminal back the same way.
            let editor = try #require(
                ProcessTree.descendants(of: shell.panePID).first {
                    (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("fitiq-tui")
                        == true
                })
            #expect(kill(editor, SIGTSTP) == 0)
            try await shell.waitUntil("the shell's prompt after kill -TSTP") {
                !$0.contains { $0.contains("Physical") } && $0.endsWithPrompt
            }
            try await shell.type("fg")
            try await shell.send("Enter")
            try await shell.waitUntil("the editor back after kill -TSTP") {
                $0.field("Name")?.contains("Jane Doe Smith *") == true && $0.contains { $0.contains("Physical") }
            }
            // Still working: the draft saves.
            try await shell.send("C-s")
            try await shell.waitUntil("saved") {
                $0.showsSaved("Name", "Jane Doe Smith")
            }
            try await shell.send("q")
            try await shell.waitUntil("the shell again") {
                !$0.contains { $0.contains("Physical") } && $0.endsWithPrompt
            }
        }
    }

    @Test func theUsersEditorWritesTheBio() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let script = e2e.folder.appendingPathComponent("my-editor.sh")
            try "#!/bin/sh\nprintf 'Written in my editor\\nover two lines\\n' > \"$1\"\n".write(
                to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            let tui = try e2e.openTUI(server: server, extraEnvironment: ["EDITOR": script.path])
            defer { tui.kill() }
            try await waitForProfile(tui)

            try await tui.send("Tab")
            try await tui.waitUntil("focus on the bio, with the editor key") {
                $0.field("Bio")?.contains("›Bio") == true && $0.contains { $0.contains("e editor") }
            }
            try await tui.send("e")
            let bio = "Written in my editor over two lines"
            try await tui.waitUntil("the bio as a draft, and what was changed") {
                $0.field("Bio")?.contains("Written in my editor") == true
                    && $0.field("Bio")?.contains("… *") == true
                    && $0.contains { $0.contains("From your editor: line breaks and tabs became spaces.") }
            }
            try await tui.send("C-s")
            try await tui.waitUntil("the bio saved and synced") {
                $0.showsSaved("Bio", "Written in my editor")
                    && $0.title.contains("● synced")
            }
            #expect(try await server.snapshot().bio == bio)
            // The temporary file is gone.
            let left = try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter {
                $0.hasPrefix("fitiq-bio-")
            }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test func resizingFromLargeToSmallAndBackKeepsADraft() async throws {
        try await withEndToEnd { e2e, server in
            try await withEditor(server, size: (120, 40), in: e2e) { tui in

                try await tui.send("Tab")
                try await tui.editField("Bio", typing: "Kept across sizes")

                try await tui.resize(width: 40, height: 12)
                try await tui.waitUntil("the stacked layout at 40×12", isStackedAt40x12)
                try await tui.resize(width: 120, height: 40)
                try await tui.waitUntil("the draft at 120×40 again") { rows in
                    rows.count == 40 && rows[1].contains("┌─ Physical")
                        && rows.field("Bio")?.contains("Kept across sizes *") == true
                }
            }
        }
    }
}

extension TerminalHabitsEndToEndTests {
    @Test func aHistoryEntryDeletedFromTheEditorComesBackWithUndo() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            #expect(try await e2e.cli(["height", "set", "183 cm"]).status == 0)
            #expect(try await server.snapshot().heightEntries == [183])
            let tui = try await e2e.openEditor(
                on: server, waitingAlsoFor: { $0.contains { $0.contains("183.0 cm  manual") } })
            defer { tui.kill() }

            for _ in 0..<4 { try await tui.send("Tab") }  // Height
            try await tui.waitFor("›Height")
            try await tui.send("l")
            try await tui.waitFor(all: ["Height history (↑↓ choose", "›"])
            try await tui.send("d")
            try await tui.waitFor("Remove this height?")
            try await tui.send("y")
            try await tui.waitUntil("the entry removed and synced") {
                $0.contains { $0.contains("Removed 183.0 cm; u undoes it.") }
                    && $0.contains { $0.contains("No height history yet.") } && $0.title.contains("● synced")
            }
            #expect(try await server.snapshot().heightEntries == [])

            try await tui.send("u")
            try await tui.waitUntil("the entry back and synced") {
                $0.contains { $0.contains("Undid the removal of the height 183.0 cm of") }
                    && $0.contains { $0.contains("183.0 cm") && !$0.contains("Undid") }
                    && $0.title.contains("● synced") && !$0.title.contains("pending")
            }
            #expect(try await server.snapshot().heightEntries == [183])
        }
    }
}

extension TerminalHabitsEndToEndTests {
    @Test func aWeightTypedInTheEditorIsLoggedOnTheServerAndItsHistoryFollowsTheFocus() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            #expect(try await e2e.cli(["weight", "set", "80.2 kg"]).status == 0)
            let tui = try await e2e.openEditor(
                on: server, waitingAlsoFor: { $0.contains { $0.contains("80.2 kg · today") } })
            defer { tui.kill() }

            for _ in 0..<5 { try await tui.send("Tab") }  // Weight
            try await tui.waitFor(all: ["›Weight", "Weight history", "80.2 kg  manual"])
            try await tui.send("Enter")
            try await tui.send("C-u")
            try await tui.paste("176 lb")
            try await tui.send("Enter")
            try await tui.waitFor("176 lb *")
            try await tui.send("C-s")
            try await tui.waitUntil("the weight logged and synced") { rows in
                rows.contains { $0.contains("Weight saved.") } && rows.contains { $0.contains("79.8 kg  manual") }
                    && rows.title.contains("● synced") && !rows.title.contains("pending")
            }
            #expect(try await server.snapshot().weightEntries.sorted() == [79.83, 80.2])

            // Its own list: the newest removed, and undone.
            try await tui.send("l")
            try await tui.waitFor(all: ["Weight history (↑↓ choose", "›"])
            try await tui.send("d")
            try await tui.waitFor("Remove this weight?")
            try await tui.send("y")
            try await tui.waitUntil("the weight removed and synced") { rows in
                rows.contains { $0.contains("Removed 79.8 kg; u undoes it.") } && rows.title.contains("● synced")
                    && !rows.title.contains("pending")
            }
            #expect(try await server.snapshot().weightEntries == [80.2])
        }
    }
}

extension TerminalHabitsEndToEndTests {
    @Test func pShowsTheFocusedMeasurementsChartTrendAndRate() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let today = CalendarDate(containing: Date(), in: .utc)
            for (daysAgo, kilograms) in [(21, "82.0"), (14, "81.4"), (7, "80.6"), (1, "80.1")] {
                let day = today.adding(days: -daysAgo).description
                #expect(try await e2e.cli(["weight", "set", kilograms, "--date", day, "--no-sync"]).status == 0)
            }
            let tui = try await e2e.openEditor(on: server, waitingAlsoFor: { $0.contains { $0.contains("80.1 kg") } })
            defer { tui.kill() }
            for _ in 0..<5 { try await tui.send("Tab") }  // Weight
            try await tui.waitFor("›Weight")
            try await tui.send("p")
            try await tui.waitFor(all: [
                "Weight · 4 weeks", "Latest 80.1 kg on", "a week over the last 4 weeks", "readings",
            ])
            try await tui.send("Right")
            try await tui.waitFor(all: ["Weight · 3 months", "over the last 3 months"])
            try await tui.send("Escape")
            try await tui.waitUntil("the profile again") { rows in
                rows.contains { $0.contains("›Weight") } && !rows.contains { $0.contains("Weight · 3 months") }
            }
        }
    }
}

extension TerminalHabitsEndToEndTests {
    /// A goal set from the command line shows on the progress screen with the day the trend reaches
    /// it: at 40×12 on the Linux console (its sentences folded, the chart kept) and at 120×40.
    @Test(arguments: [(40, 12, "linux"), (120, 40, TmuxSession.term)])
    func aGoalSetFromTheCommandLineShowsWithItsPredictedDay(width: Int, height: Int, term: String) async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let today = CalendarDate(containing: Date(), in: .utc)
            // Eight weeks of weights falling 0.1 kg a day, to 80.1 kg yesterday.
            for daysAgo in stride(from: 57, through: 1, by: -4) {
                let kilograms = DecimalText.format(80.1 + Double(daysAgo - 1) / 10, places: 1)
                let day = today.adding(days: -daysAgo).description
                #expect(try await e2e.cli(["weight", "set", kilograms, "--date", day, "--no-sync"]).status == 0)
            }
            let by = today.adding(days: 120)
            let goal = try await e2e.cli(["goal", "set", "weight", "75", "--by", by.description])
            #expect(goal.status == 0, "\(goal)")

            let tui = try e2e.openTUI(server: server, term: term, size: (width, height))
            defer { tui.kill() }
            try await tui.waitUntil("the synced profile") {
                $0.title.contains("● synced") && $0.contains { $0.contains("›Name") }
            }
            try await tui.send("p")
            let shown = try await tui.waitUntil("the goal with its predicted day") { rows in
                let plot = rows.filter { $0.dropFirst().dropLast().contains { "┤│".contains($0) } }.count
                let goalLine = rows.contains {
                    $0.contains("goal") && ($0.contains("═") || $0.contains("╌") || $0.contains("="))
                }
                let predicted =
                    width < 80
                    ? rows.contains {
                        $0.range(
                            of: #"goal 75\.0 kg: \d+\.\d above, 20\d\d-\d\d-\d\d"#, options: .regularExpression)
                            != nil
                    }
                    : rows.contains {
                        $0.range(of: #"it reaches the goal on 20\d\d-\d\d-\d\d\."#, options: .regularExpression)
                            != nil
                    }
                return rows.contains { $0.contains("Weight · 4 weeks") } && predicted && goalLine && plot >= 5
            }
            #expect(shown.contains("Goal 75.0 kg by \(by)") == (width >= 80), "\(shown)")
        }
    }
}

/// In `shell`, at its prompt: starts the editor (`command`), types a draft name, stops the editor with
/// Ctrl-Z (the shell's prompt comes back and says it stopped), and brings it back with `fg`, repainted
/// with its draft. Locally and over SSH.
func stopWithCtrlZAndResume(_ shell: TmuxSession, command: String) async throws {
    try await shell.type(command)
    try await shell.send("Enter")
    try await waitForProfile(shell)

    try await shell.editField("Name", typing: " Smith", draft: "Jane Doe Smith")

    try await shell.send("C-z")
    try await shell.waitUntil("the shell's prompt after the stop") { rows in
        !rows.contains { $0.contains("Physical") }
            && rows.contains { $0.contains("Stopped") || $0.contains("stopped") } && rows.endsWithPrompt
    }
    try await shell.type("fg")
    try await shell.send("Enter")
    try await shell.waitUntil("the editor repainted with the draft") {
        $0.title.contains(EndToEnd.email) && $0.field("Name")?.contains("Jane Doe Smith *") == true
            && $0.contains { $0.contains("Physical") }
    }
}

/// The profile at 40×12, the boxes stacked, the bio focused, the footer still offering help.
func isStackedAt40x12(_ rows: [String]) -> Bool {
    rows.count == 12 && rows.contains { $0.hasPrefix("┌─ Profile") } && rows.contains { $0.contains("›Bio") }
        && rows.last?.contains("? help") == true
}
