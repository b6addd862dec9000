import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// The real `fitiq-tui` on a real terminal (tmux) against the development server on a free port.
///
/// Each test has its own server, XDG folders and tmux server. Every step waits for what the screen
/// must show next (polling with a generous deadline) before it sends the next keys.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct EndToEndTests {
    @Test func signInThroughTheSignInScreen() async throws {
        try await withEndToEnd { e2e, server in
            let registered = try await e2e.register(on: server)
            #expect(registered.status == 0, "\(registered)")
            let logout = try await e2e.cli(["logout"])
            #expect(logout.status == 0, "\(logout)")

            let tui = try e2e.openTUI(server: server, tracingProcesses: true)
            defer { tui.kill() }
            try await tui.waitFor("Sign in to FitIQ")
            try await tui.type(EndToEnd.email)
            try await tui.waitUntil("the email typed") {
                $0.row(containing: "Email")?.contains(EndToEnd.email) == true
            }
            try await tui.send("Tab")
            try await tui.type(EndToEnd.password)
            let masked = String(repeating: "•", count: EndToEnd.password.count)
            let typed = try await tui.waitUntil("the password masked") {
                $0.row(containing: "Password")?.contains(masked) == true
            }
            #expect(!typed.contains(EndToEnd.password))
            try await tui.send("Enter")

            // The whole screen that follows: the profile drawn and the status line written.
            let signedIn = "Signed in as \(EndToEnd.email)."
            let profile = try await tui.waitUntil("the profile screen with \"\(signedIn)\"") {
                $0.title.contains(EndToEnd.email) && $0.field("Name")?.contains(EndToEnd.name) == true
                    && $0.contains { $0.contains(signedIn) } && $0.contains { $0.contains("Physical") }
            }
            #expect(profile.contains(signedIn))
            #expect(profile.contains("Physical"))

            // Save a bio and sync: like signing in, all in the editor's own process.
            try await tui.send("Tab")
            try await tui.editField("Bio", typing: "Saved in process")
            try await tui.send("C-s")
            try await tui.waitUntil("the bio saved and synced") {
                $0.showsSaved("Bio", "Saved in process")
                    && $0.title.contains("● synced")
            }
            try await tui.send("s")
            try await tui.waitUntil("synced again") { $0.title.contains("● synced") }
            #expect(try await server.snapshot().bio == "Saved in process")

            try await tui.send("q")
            try await expectCleanExit(e2e, tui)
            // Signing in, saving and syncing started no process: no child, no exec.
            let started = try e2e.startedProcesses()
            #expect(started == [], "\(started)")
        }
    }

    /// What the check above counts, on lines as strace writes them: a thread is not a process, and
    /// the symbolizer ThreadSanitizer starts (with the clone that made it) is the sanitizer's.
    @Test func aTraceCountsChildrenAndExecsButNotThreadsOrTheSanitizersSymbolizer() throws {
        let start = #"9681  execve("/b/fitiq-tui", ["/b/fitiq-tui"], 0x7ffd /* 11 vars */) = 0"#
        let thread = "9681  clone3({flags=CLONE_VM|CLONE_FS|CLONE_SIGHAND|CLONE_THREAD, exit_signal=0}, 88) = 9690"
        let resumed = "9681  <... clone3 resumed> => {parent_tid=[9690]}, 88) = 9690"
        let symbolizerClone = "9681  clone(child_stack=NULL, flags=SIGCHLD) = 9850"
        let symbolizer =
            #"9850  execve("/usr/bin/llvm-symbolizer", ["/usr/bin/llvm-symbolizer", "--demangle"], 0x7fff /* 11 vars */) = 0"#
        let child = "9681  clone(child_stack=NULL, flags=CLONE_CHILD_SETTID|SIGCHLD) = 9851"
        let exec = #"9851  execve("/bin/sh", ["sh", "-c", "x"], 0x7fff /* 11 vars */) = 0"#

        let quiet = [start, thread, resumed, symbolizerClone, symbolizer].joined(separator: "\n")
        #expect(try EndToEnd.startedProcesses(inTrace: quiet) == [])
        let busy = [start, thread, symbolizerClone, symbolizer, child, exec].joined(separator: "\n")
        #expect(try EndToEnd.startedProcesses(inTrace: busy) == [exec, child])
        // A trace without the program's own start traced nothing.
        #expect(throws: (any Error).self) { try EndToEnd.startedProcesses(inTrace: thread) }
    }

    @Test func aNewNameWithAWideCharacterReachesTheServer() async throws {
        try await withEndToEnd { e2e, server in
            try await withEditor(server, in: e2e) { tui in

                let newName = "Zoë 李 Runner"
                try await tui.editField("Name", replacing: true, typing: newName)
                try await tui.send("C-s")
                try await tui.waitUntil("the name saved and synced") {
                    guard let name = $0.field("Name") else { return false }
                    return name.contains(newName) && !name.contains("*") && $0.title.contains("● synced")
                }

                let stored = try await server.snapshot()
                #expect(stored.name == newName)
            }
        }
    }

    @Test func imperialUnitsAndAHeightOfFiveFeetElevenReachTheServer() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let before = try await server.snapshot()
            #expect(before.heightCm == nil)
            let tui = try await e2e.openEditor(on: server)
            defer { tui.kill() }

            try await tui.send("Tab", "Tab")
            try await tui.waitUntil("focus on the unit system") {
                $0.field("Unit system")?.contains("›Unit system") == true
            }
            try await tui.send("Enter")
            try await tui.waitUntil("imperial as a draft") {
                $0.field("Unit system")?.contains("imperial *") == true
            }
            try await tui.send("Tab", "Tab")
            try await tui.waitUntil("focus on the height") { $0.field("Height")?.contains("›Height") == true }
            try await tui.editField("Height", replacing: true, typing: "5'11\"")
            try await tui.send("C-s")
            try await tui.waitUntil("both forms saved and synced") {
                guard let units = $0.field("Unit system"), let height = $0.field("Height") else { return false }
                return units.contains("imperial") && !units.contains("*") && height.contains("5 ft 11 in")
                    && !height.contains("*") && $0.title.contains("● synced")
            }

            let after = try await server.snapshot()
            #expect(after.unitSystem == "imperial")
            #expect(abs((after.heightCm ?? 0) - 180.3) < 0.1, "height_cm \(String(describing: after.heightCm))")
            #expect(after.heightEntries.count == before.heightEntries.count + 1, "\(after.heightEntries)")
            #expect(after.heightEntries.contains { abs($0 - 180.3) < 0.1 }, "\(after.heightEntries)")
        }
    }

    @Test func resizingReflowsTheBoxesAndLosesNothing() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let tui = try e2e.openTUI(server: server)
            defer { tui.kill() }
            let first = try await waitForProfile(tui) { rightBoxColumn($0) == 50 }
            #expect(rightBoxColumn(TmuxSession.rows(of: first)) == 50)

            // A confirmed draft (Bio) and an edit still open (Name) must both survive.
            try await tui.send("Tab")
            try await tui.editField("Bio", typing: "Survives resizing")
            try await tui.send("BTab", "Enter")
            try await tui.waitFor("Enter confirm")
            try await tui.type(" Smith")
            try await tui.waitUntil("the name being edited") {
                $0.field("Name")?.contains("Jane Doe Smith") == true
            }
            let intact: ([String]) -> Bool = {
                $0.title.contains(EndToEnd.email) && $0.field("Bio")?.contains("Survives resizing *") == true
                    && $0.field("Name")?.contains("Jane Doe Smith") == true
                    && $0.contains { $0.contains("Enter confirm") }
            }

            try await tui.resize(width: 80, height: 24)
            let small = try await tui.waitUntil("the boxes at 80×24") { rightBoxColumn($0) == 40 && intact($0) }
            #expect(TmuxSession.rows(of: small).count == 24)
            try await tui.resize(width: 100, height: 30)
            try await tui.waitUntil("the boxes at 100×30 again") { rightBoxColumn($0) == 50 && intact($0) }

            // (70×20 was too small until the layout learned to stack; now only below 40×12 is.)
            try await tui.resize(width: 30, height: 10)
            try await tui.waitFor("Terminal too small: 30×10.")
            try await tui.resize(width: 100, height: 30)
            try await tui.waitUntil("the profile after being too small") { rightBoxColumn($0) == 50 && intact($0) }

            // The edit still works after all that: confirm it.
            try await tui.send("Enter")
            try await tui.waitUntil("the name as a draft") {
                $0.field("Name")?.contains("Jane Doe Smith *") == true
            }
        }
    }

    @Test func anEditMadeWhileTheServerIsDownIsSentWhenItReturns() async throws {
        try await EndToEnd.with { e2e in
            let first = try await e2e.startServer()
            var second: TestDevServer?
            do {
                #expect(try await e2e.register(on: first).status == 0)
                let tui = try e2e.openTUI(server: first)
                defer { tui.kill() }
                try await waitForProfile(tui)

                await first.stop()
                try await tui.send("Tab")
                try await tui.editField("Bio", typing: "Written offline")
                try await tui.send("C-s")
                let offline = try await tui.waitUntil("the change pending while offline, and why") {
                    $0.title.contains("○ offline · 1 change pending")
                        && $0.contains { $0.contains("Saved here, not on the server yet") }
                }
                #expect(offline.contains("Saved here, not on the server yet"))

                second = try await first.restart()
                try await tui.send("s")
                try await tui.waitUntil("synced after the server returned", timeout: .seconds(60)) {
                    $0.title.contains("● synced") && !$0.title.contains("pending")
                }
                let stored = try await second?.snapshot()
                #expect(stored?.bio == "Written offline")
                #expect(stored?.name == EndToEnd.name)
            } catch {
                await first.stop()
                await second?.stop()
                throw error
            }
            await first.stop()
            await second?.stop()
        }
    }

    @Test func quittingWithAnUnsavedEditAsksFirst() async throws {
        try await withEndToEnd { e2e, server in
            try await withEditor(server, in: e2e) { tui in

                try await tui.editField("Name", typing: " Smith", draft: "Jane Doe Smith")

                try await tui.send("q")
                try await tui.waitFor("Unsaved edits")
                try await tui.send("n")
                try await tui.waitUntil("the prompt closed, the edit kept") {
                    !$0.contains { $0.contains("Unsaved edits") }
                        && $0.field("Name")?.contains("Jane Doe Smith *") == true
                }
                try await tui.send("q")
                try await tui.waitFor("Unsaved edits")
                try await tui.send("y")
                try await expectCleanExit(e2e, tui)
                #expect(try await server.snapshot().name == EndToEnd.name)
            }
        }
    }
}

extension EndToEndTests {
    @Test func theImportKeyReadsAHealthExportAndShowsTheSexFromTheHealthSource() async throws {
        try await withEndToEnd { e2e, server in
            let export = try e2e.homeFile("export.zip")
            let made = try await RepositoryTools.makeHealthExport([
                "--zip", "--mb", "1", "--sex", "female", "--heights", "6", "--out", export.path,
            ])
            #expect(made.status == 0, "\(made)")

            try await withEditor(server, in: e2e) { tui in
                try await tui.send("i")
                try await tui.waitFor("The export to import")
                try await tui.type("~/missing.zip")
                try await tui.send("Enter")
                try await tui.waitFor("No file or folder at")
                try await tui.send("C-u")
                try await tui.type("~/export.zip")
                try await tui.send("Enter")
                // What the export holds shows first; nothing is written until Enter.
                try await tui.waitFor(all: ["Import: what was found", "Heights: 6 found, 6 new."])
                #expect(try await server.snapshot().heightEntries.isEmpty)
                try await tui.send("Enter")
                let result = try await tui.waitFor(all: ["Health data imported", "Heights: 6 found, 6 new."])
                #expect(result.contains("Heights: 6 found, 6 new."))
                try await tui.send("Escape")
                // The result closed (its lines shown behind a key no more), and the imported sex synced.
                let screen = try await tui.waitUntil("the result closed and the imported sex synced") { rows in
                    guard let row = rows.firstIndex(where: { $0.contains("Biological sex") }), row + 1 < rows.count
                    else { return false }
                    return rows[row].contains("Female") && rows[row + 1].contains("from health source")
                        && rows.title.contains("● synced") && !rows.contains { $0.contains("Heights: 6 found") }
                }
                #expect(!screen.contains("press i to import"))
                // Focused and Enter: it is read, never edited.
                try await tui.send("BTab")  // from Name back to the last field
                try await tui.waitUntil("the biological sex focused") { rows in
                    rows.contains { $0.contains("›Biological sex") }
                }
                try await tui.send("Enter")
                try await tui.waitFor("only from your health data")
                let stored = try await server.snapshot()
                #expect(stored.heightEntries.count == 6)
            }
        }
    }
}

extension EndToEndTests {
    @Test func theDemoTakesItsServerAndFilesAlongHoweverItEnds() async throws {
        try await EndToEnd.with { e2e in
            let temporary = e2e.folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            func demoFolders() throws -> [String] {
                try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter {
                    $0.hasPrefix("fitiq-demo-")
                }
            }
            let first = try e2e.openTUI(arguments: ["demo"], extraEnvironment: ["TMPDIR": temporary.path])
            defer { first.kill() }
            try await first.waitUntil("the demo profile") { $0.title.contains("demo@fitiq.dev") }
            let children = ProcessTree.descendants(of: first.panePID)
            let client = try #require(children.first { ProcessTree.name(of: $0)?.hasPrefix("fitiq-tui") == true })
            // (`comm` keeps 15 characters of the name.)
            let server = try #require(children.first { ProcessTree.name(of: $0)?.hasPrefix("fitiq-dev-serv") == true })
            #expect(try demoFolders().count == 1)

            // Killed outright: no clean-up code runs, yet the server notices its parent is gone.
            kill(client, SIGKILL)
            #expect(
                await ProcessTree.ended(server, within: .seconds(10)),
                "fitiq-dev-server outlived the demo that started it")
            _ = try await e2e.waitForExitStatus(of: first)

            // The next demo removes the abandoned cache (its tokens were signed by the stopped server).
            let second = try e2e.openTUI(arguments: ["demo"], extraEnvironment: ["TMPDIR": temporary.path])
            defer { second.kill() }
            try await second.waitUntil("the second demo") { $0.title.contains("demo@fitiq.dev") }
            #expect(try demoFolders().count == 1)
            try await second.send("q")
            let status = try await e2e.waitForExitStatus(of: second)
            let screen = try await second.screen()
            #expect(status == 0, "the demo did not end:\n\(screen)")
            #expect(try demoFolders().isEmpty)
        }
    }
}

/// The program ends with status 0 and leaves the terminal's settings as it found them and its
/// screen gone (the alternate screen left).
private func expectCleanExit(_ e2e: EndToEnd, _ tui: TmuxSession) async throws {
    let status = try await e2e.waitForExitStatus(of: tui)
    let screen = try await tui.screen()
    #expect(status == 0, "fitiq-tui ended with status \(String(describing: status)):\n\(screen)")
    let before = try String(contentsOf: e2e.sttyBefore, encoding: .utf8)
    let after = try String(contentsOf: e2e.sttyAfter, encoding: .utf8)
    #expect(!before.isEmpty)
    #expect(before == after, "stty -g before: \(before) after: \(after)")
    #expect(!screen.contains("Physical") && !screen.contains("Unsaved edits"), "the TUI is still shown:\n\(screen)")
}

extension EndToEndTests {
    @Test func theImportKeyAlsoReadsACSVFileOfMeasurements() async throws {
        try await withEndToEnd { e2e, server in
            let file = try e2e.homeFile("weights.csv")
            try Data("Date,Weight\n2025-03-01,80.5\n2025-03-08,79.8\n".utf8).write(to: file)

            try await withEditor(server, in: e2e) { tui in
                try await tui.send("i")
                try await tui.waitFor("(a file, zip or folder)")
                try await tui.type("~/weights.csv")
                try await tui.send("Enter")
                // What was found shows first; nothing is written until Enter.
                try await tui.waitFor(all: ["Import: what was found", "Weights: 2 read, 2 new, 0 already there."])
                #expect(try await server.snapshot().weightEntries.isEmpty)
                try await tui.send("Enter")
                try await tui.waitFor(all: ["Health data imported", "Weights: 2 read, 2 new, 0 already there."])
                try await tui.send("Escape")
                try await tui.waitUntil("the weights synced") { rows in
                    rows.contains { $0.contains("Weight") && $0.contains("79.8 kg") }
                        && rows.title.contains("● synced") && !rows.title.contains("pending")
                }
                #expect(try await server.snapshot().weightEntries.sorted() == [79.8, 80.5])
            }
        }
    }
}

extension EndToEndTests {
    /// On a terminal, `import-csv` draws a bar that fills in place, then says what it did.
    @Test func importCSVOnATerminalShowsItsProgressBarThenTheSummary() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let file = e2e.folder.appendingPathComponent("weights.csv")
            let start = CalendarDate(daysSince1970: 10_000)
            let rows = (0..<3_000).map { "\(start.adding(days: $0)),\(70 + Double($0 % 100) / 10)" }
            try Data((["date,weight"] + rows + [""]).joined(separator: "\n").utf8).write(to: file)

            let tui = try e2e.openTUI(arguments: ["import-csv", file.path, "--no-sync"])
            defer { tui.kill() }
            _ = try await tui.waitFor(all: [
                "Weights: 3000 read, 3000 new, 0 already there.", "fitiq-tui exited with status 0",
            ])
            // (With the history: the pane's end scrolls the screen by a line.)
            let lines = TmuxSession.rows(of: try await tui.screenAndHistory())
            let bar = "Reading weights.csv  " + String(repeating: "█", count: 30) + " 100 %"
            // Drawn in place: one line of bar, not a line per step.
            #expect(lines.filter { $0.hasPrefix("Reading weights.csv") }.count == 1, "\(lines)")
            #expect(lines.contains { $0.hasPrefix(bar) }, "\(lines)")
            let status = try await e2e.cli(["status", "--json"]).stdout
            let fields = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
            #expect(fields?["pendingChanges"] as? Int == 3_000, "\(status)")
        }
    }
}

/// A terminal type this machine's terminfo does not know (Ghostty, kitty and WezTerm send their own).
extension EndToEndTests {
    @Test func anUnknownXtermTypeOpensAsXterm256ColorWithANoticeSaidAgainAfterQuitting() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let tui = try e2e.openTUI(server: server, extraEnvironment: ["TERM": "xterm-no-such-terminal"])
            defer { tui.kill() }
            let notice =
                "TERM xterm-no-such-terminal is unknown here, shown as xterm-256color. "
                + "To install it: infocmp -x | ssh HOST -- tic -x -"
            // The notice is wrapped at spaces over the footer's lines.
            try await waitForProfile(tui) { rows in
                rows.suffix(4).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                    .contains(notice)
            }
            // It works as usual: an edit saves.
            try await tui.send("Enter", "C-e", " Jr", "Enter", "C-s")
            try await tui.waitUntil("the name saved and synced") {
                $0.showsSaved("Name", "Jane Doe Jr")
                    && $0.title.contains("● synced")
            }
            #expect(try await server.snapshot().name == "Jane Doe Jr")
            try await tui.send("q")
            try await expectCleanExit(e2e, tui)
            // Said again on the shell, where it can be copied.
            let after = try await tui.screenAndHistory()
            #expect(TmuxSession.rows(of: after).contains(notice), "\(after)")
        }
    }

    /// The notice speaks the profile's language, as the editor does, though nothing reads the profile
    /// for it when the terminal type is known.
    @Test func theNoticeSpeaksTheProfilesLanguage() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            #expect(try await e2e.cli(["profile", "set", "--language", "de"]).status == 0)
            let tui = try e2e.openTUI(server: server, extraEnvironment: ["TERM": "xterm-no-such-terminal"])
            defer { tui.kill() }
            let notice =
                "TERM xterm-no-such-terminal ist hier unbekannt, angezeigt wird xterm-256color. "
                + "Zum Installieren: infocmp -x | ssh HOST -- tic -x -"
            try await tui.waitUntil("the German profile screen with the notice") { screen in
                screen.title.contains("● synchronisiert") && screen.field("Name")?.contains(EndToEnd.name) == true
                    && screen.suffix(4).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                        .contains(notice)
            }
            try await tui.send("q")
            try await expectCleanExit(e2e, tui)
        }
    }

    @Test func fitiqTermChoosesTheTypeOverTerm() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            // TERM=dumb alone starts plain mode; FITIQ_TERM opens the editor anyway.
            let tui = try e2e.openTUI(
                server: server, extraEnvironment: ["TERM": "dumb", "FITIQ_TERM": "xterm-kitty-not-here"])
            defer { tui.kill() }
            try await waitForProfile(tui) { rows in
                rows.contains { $0.contains("TERM xterm-kitty-not-here is unknown here, shown as xterm-256color.") }
            }
            try await tui.send("q")
            try await expectCleanExit(e2e, tui)
        }
    }
}
