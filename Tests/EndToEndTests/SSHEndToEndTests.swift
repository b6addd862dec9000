import FitIQTestSupport
import Foundation
import Testing

/// The real `fitiq-tui` reached through a real `sshd` on 127.0.0.1 (``SSHServer``), as people run it:
/// `ssh -tt` from a terminal (tmux) that sends no `LANG` or `LC_*`, and `ssh HOST COMMAND` from
/// scripts. The program gets its environment on the remote command line (`env -i …`), since sshd
/// passes on none of the client's.
///
/// Each test has its own sshd (keys, configuration, port), development server, XDG folders and tmux
/// server. Every step waits for what the screen must show next before it sends the next keys.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct SSHEndToEndTests {
    @Test func aNameWithAnAccentAHanCharacterAndAnEmojiTypedThroughSSHReachesTheServer() async throws {
        try await withSSH { e2e, ssh, server in
            try await withEditor(server, ssh: ssh, in: e2e) { tui in
                // The cached profile, then synced.
                try expectNoLocaleArrived(e2e)

                let newName = "Zoé 李 🏃 Runner"
                try await tui.editField("Name", replacing: true, typing: newName)

                // Pasted, too: the bio.
                let bio = "Café run 李 🏃"
                try await tui.send("Tab", "Enter")
                try await tui.waitFor("Enter confirm")
                try await tui.paste(bio)
                try await tui.waitUntil("the bio pasted") { $0.field("Bio")?.contains(bio) == true }
                try await tui.send("Enter")
                try await tui.waitUntil("the bio as a draft") { $0.field("Bio")?.contains("\(bio) *") == true }

                try await tui.send("C-s")
                try await tui.waitUntil("both saved and synced") {
                    guard let name = $0.field("Name"), let shownBio = $0.field("Bio") else { return false }
                    return name.contains(newName) && !name.contains("*") && shownBio.contains(bio)
                        && !shownBio.contains("*") && $0.title.contains("● synced") && !$0.title.contains("pending")
                }
                let stored = try await server.snapshot()
                #expect(stored.name == newName)
                #expect(stored.bio == bio)
                // The command line here reads the same from the cache the editor wrote over there.
                let shown = try await e2e.cli(["profile", "show", "--json"])
                let profile = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
                #expect(profile?["name"] as? String == newName, "\(shown)")
            }
        }
    }

    @Test func resizingTheTerminalReachesTheEditorThroughSSH() async throws {
        try await withSSH { e2e, ssh, server in
            try await withEditor(server, ssh: ssh, in: e2e, waitingAlsoFor: { rightBoxColumn($0) == 50 }) { tui in

                try await tui.send("Tab")
                try await tui.editField("Bio", typing: "Kept over SSH")

                // Each size reaches sshd's terminal as a window change, and the editor as SIGWINCH.
                try await tui.resize(width: 80, height: 24)
                let small = try await tui.waitUntil("the boxes at 80×24") {
                    rightBoxColumn($0) == 40 && $0.field("Bio")?.contains("Kept over SSH *") == true
                }
                #expect(TmuxSession.rows(of: small).count == 24)
                try await tui.resize(width: 40, height: 12)
                try await tui.waitUntil("the stacked layout at 40×12", isStackedAt40x12)
                try await tui.resize(width: 30, height: 10)
                try await tui.waitFor("Terminal too small: 30×10.")
                try await tui.resize(width: 100, height: 30)
                try await tui.waitUntil("the boxes at 100×30 with the draft") {
                    rightBoxColumn($0) == 50 && $0.field("Bio")?.contains("Kept over SSH *") == true
                }
                try await tui.resize(width: 80, height: 24)
                try await tui.waitUntil("the boxes at 80×24 again") {
                    rightBoxColumn($0) == 40 && $0.field("Bio")?.contains("Kept over SSH *") == true
                }

                try await tui.send("q")
                try await tui.waitFor("Unsaved edits")
                try await tui.send("y")
                #expect(try await e2e.waitForExitStatus(of: tui) == 0)
                // The remote terminal itself changed size: 100×30 when it started, 80×24 at the end.
                let before = try String(contentsOf: e2e.sttyAllBefore, encoding: .utf8)
                let after = try String(contentsOf: e2e.sttyAllAfter, encoding: .utf8)
                #expect(before.contains("rows 30; columns 100;"), "\(before)")
                #expect(after.contains("rows 24; columns 80;"), "\(after)")
            }
        }
    }

    @Test func ctrlZGivesTheRemoteShellBackAndFgBringsTheEditorBackWithItsDraft() async throws {
        try await withSSH { e2e, ssh, server in
            #expect(try await e2e.register(on: server).status == 0)
            let (shell, command) = try e2e.openShell(server: server, ssh: ssh)
            defer { shell.kill() }
            try await shell.waitUntil("the remote shell's prompt") { $0.endsWithPrompt }
            try await stopWithCtrlZAndResume(shell, command: command)
            // Still working: the draft saves.
            try await shell.send("C-s")
            try await shell.waitUntil("saved and synced") {
                $0.showsSaved("Name", "Jane Doe Smith")
                    && $0.title.contains("● synced") && !$0.title.contains("pending")
            }
            #expect(try await server.snapshot().name == "Jane Doe Smith")
            try await shell.send("q")
            try await shell.waitUntil("the remote shell again") {
                !$0.contains { $0.contains("Physical") } && $0.endsWithPrompt
            }
        }
    }

    @Test func quittingLeavesTheRemoteTerminalAsItFoundIt() async throws {
        try await withSSH { e2e, ssh, server in
            try await withEditor(server, ssh: ssh, in: e2e) { tui in
                // Quit from the middle of an edit, through the question about it.
                try await tui.send("Enter")
                try await tui.waitFor("Enter confirm")
                try await tui.type(" Smith")
                try await tui.waitUntil("the name being edited") {
                    $0.field("Name")?.contains("Jane Doe Smith") == true
                }
                try await tui.send("Escape")
                try await tui.waitUntil("the edit cancelled") {
                    !$0.contains { $0.contains("Enter confirm") } && $0.field("Name")?.contains("Smith") == false
                }
                try await tui.send("q")

                let screen = try await tui.waitFor(all: ["fitiq-tui exited with status 0", "ssh exited with status 0"])
                #expect(try await e2e.waitForExitStatus(of: tui) == 0)
                #expect(!screen.contains("Physical"), "the editor is still shown:\n\(screen)")
                let before = try String(contentsOf: e2e.sttyAllBefore, encoding: .utf8)
                let after = try String(contentsOf: e2e.sttyAllAfter, encoding: .utf8)
                #expect(before.contains("icanon") && before.contains(" echo "), "\(before)")
                #expect(before == after, "stty -a before:\n\(before)\nafter:\n\(after)")
                let settingsBefore = try String(contentsOf: e2e.sttyBefore, encoding: .utf8)
                let settingsAfter = try String(contentsOf: e2e.sttyAfter, encoding: .utf8)
                #expect(settingsBefore == settingsAfter)
                try expectNoLocaleArrived(e2e)
            }
        }
    }

    /// Ghostty's TERM, which servers rarely know: the editor opens as xterm-256color, with the notice.
    @Test func aTerminalTypeTheServerDoesNotKnowOpensTheEditorWithTheNotice() async throws {
        // (Should this machine's terminfo ever have Ghostty's entry, a name nobody has stands in.)
        let known = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"].contains {
            FileManager.default.fileExists(atPath: "\($0)/x/xterm-ghostty")
        }
        let term = known ? "xterm-no-such-terminal" : "xterm-ghostty"
        try await withSSH { e2e, ssh, server in
            #expect(try await e2e.register(on: server).status == 0)
            let tui = try e2e.openTUI(server: server, term: term, ssh: ssh)
            defer { tui.kill() }
            let notice =
                "TERM \(term) is unknown here, shown as xterm-256color. To install it: infocmp -x | ssh HOST -- tic -x -"
            try await waitForProfile(tui) { rows in
                rows.suffix(4).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").contains(notice)
            }
            let received = try String(contentsOf: e2e.terminalEnvironmentFile, encoding: .utf8)
            #expect(received.contains("TERM=\(term)\n"), "sshd gave the remote terminal the client's TERM")
            try await tui.send("q")
            _ = try await tui.waitFor(all: ["fitiq-tui exited with status 0", "ssh exited with status 0"])
            #expect(try await e2e.waitForExitStatus(of: tui) == 0)
            let lines = TmuxSession.rows(of: try await tui.screenAndHistory())
            #expect(lines.contains(notice), "said again after quitting:\n\(lines)")
            #expect(
                try String(contentsOf: e2e.sttyAllBefore, encoding: .utf8)
                    == String(contentsOf: e2e.sttyAllAfter, encoding: .utf8))
        }
    }

    @Test func plainModeAndSyncGiveTheSameOutputAndStatusThroughSSHAsHere() async throws {
        try await withSSH { e2e, ssh, server in
            #expect(try await e2e.register(on: server).status == 0)
            // sshd passes on nothing of the client's environment: no locale arrives.
            let remoteEnvironment = try await ssh.run("/usr/bin/env")
            #expect(remoteEnvironment.status == 0)
            #expect(remoteEnvironment.stdout.contains("SSH_CONNECTION="), "\(remoteEnvironment)")
            #expect(localeVariables(remoteEnvironment.stdout) == [], "\(remoteEnvironment)")

            // Drafts, a refused value and a question answered from the script; nothing is saved, so
            // both runs start from the same state.
            let script = "show\nset height 5'13\"\nset name Zoé 李 🏃\nset bio Runs\nhistory weight\nquit\nno\n"
            try await expectSameOutcome(["--plain"], input: script, e2e, ssh, status: 0) {
                $0.contains("Height inches after feet must be below 12 (13 given)")
                    && $0.contains("Name will be Zoé 李 🏃 once you save.") && $0.contains("2 changes were not saved")
            }
            try await expectSameOutcome(["sync", "--wait"], e2e, ssh, status: 0) {
                $0.contains("Synced: the server has every change.")
            }
            // Refused before anything runs: an insecure server address (exit 64, usage).
            try await expectSameOutcome(
                ["--plain", "--server", "http://fitiq.example"], input: "quit\n", e2e, ssh, status: 64
            ) { $0.contains("--allow-insecure-http") }

            // The server goes away with a change waiting: exit 4 both ways, the same report.
            await server.stop()
            #expect(try await e2e.cli(["profile", "set", "--bio", "written offline"]).status == 0)
            try await expectSameOutcome(["sync", "--wait", "--timeout", "2"], e2e, ssh, status: 4) {
                $0.contains("profile: bio")
            }
        }
    }

    @Test func importHealthShowsItsProgressBarThroughSSHAndFinishes() async throws {
        try await withSSH { e2e, ssh, server in
            #expect(try await e2e.register(on: server).status == 0)
            let export = try e2e.homeFile("export.zip")
            let made = try await RepositoryTools.makeHealthExport([
                "--zip", "--mb", "2", "--sex", "female", "--heights", "6", "--seed", "11", "--out", export.path,
            ])
            #expect(made.status == 0, "\(made)")

            let tui = try e2e.openTUI(arguments: ["import-health", "~/export.zip"], ssh: ssh)
            defer { tui.kill() }
            let full = String(repeating: "█", count: 30)
            let screen = try await tui.waitFor(all: [
                "Reading export.zip  \(full) 100 %", "Biological sex Female from the health source",
                "Heights: 6 found, 6 new, 6 posted.", "fitiq-tui exited with status 0", "ssh exited with status 0",
            ])
            #expect(screen.contains("Read \(export.path) in"), "\(screen)")
            #expect(try await e2e.waitForExitStatus(of: tui) == 0)
            let stored = try await server.snapshot()
            #expect(stored.heightEntries.count == 6)
            try expectNoLocaleArrived(e2e)
        }
    }
}

extension SSHEndToEndTests {
    /// The harness itself: a port taken between being found free and sshd binding it (the race every
    /// free-port search has) costs a retry on another port, not a failed test.
    @Test func sshdTakesAnotherPortWhenItsPortIsTakenFirst() async throws {
        let (taken, takenPort) = try Loopback.boundSocket(listening: true)
        defer { close(taken) }
        var offered: [Int] = []
        let server = try await SSHServer.start {
            offered.append(offered.isEmpty ? takenPort : try Loopback.freePort())
            return offered[offered.count - 1]
        }
        defer { server.stop() }
        #expect(offered.count == 2 && offered[0] == takenPort && server.port == offered[1], "\(offered)")
        let answer = try await server.run("echo reached")
        #expect(answer.status == 0 && answer.stdout == "reached\n", "\(answer)")
    }
}

/// Runs `body` with fresh folders, a throw-away sshd and a development server (data in the run's
/// database file), all stopped afterwards: the tmux server first (the test's `defer`), then the
/// development server, then sshd with any session still open, then the folders go.
private func withSSH(
    _ body: @Sendable (EndToEnd, SSHServer, TestDevServer) async throws -> Void
) async throws {
    try await EndToEnd.with { e2e in
        try await SSHServer.with { ssh in
            do {
                try await e2e.withServer { server in try await body(e2e, ssh, server) }
            } catch {
                // What sshd saw says why a session did not start or ended early.
                Issue.record("sshd's log:\n\(ssh.logText())")
                throw error
            }
        }
    }
}

/// The `LANG`, `LC_*` and `LANGUAGE` lines of `env` output.
private func localeVariables(_ environment: String) -> [String] {
    environment.split(separator: "\n").map(String.init).filter {
        $0.hasPrefix("LANG=") || $0.hasPrefix("LC_") || $0.hasPrefix("LANGUAGE=")
    }
}

/// The wrapper script ran through sshd (`SSH_CONNECTION` set) with no locale variable, and with the
/// `TERM` the client's terminal has.
private func expectNoLocaleArrived(_ e2e: EndToEnd) throws {
    let environment = try e2e.terminalEnvironment()
    #expect(environment.contains { $0.hasPrefix("SSH_CONNECTION=") }, "\(environment)")
    #expect(environment.contains { $0.hasPrefix("SSH_TTY=/dev/pts/") }, "\(environment)")
    #expect(environment.contains("TERM=\(TmuxSession.term)"), "\(environment)")
    #expect(localeVariables(environment.joined(separator: "\n")) == [], "\(environment)")
}

/// Runs `fitiq-tui ARGUMENTS` here and through `ssh HOST COMMAND` (no terminal), the same input on
/// both; expects the same standard output, standard error and exit status (`status`), and `output`
/// to hold for the standard output and error together.
private func expectSameOutcome(
    _ arguments: [String], input: String? = nil, _ e2e: EndToEnd, _ ssh: SSHServer, status: Int32,
    output: (String) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let local = try await e2e.cli(arguments, input: input)
    let remote = try await e2e.cli(arguments, input: input, ssh: ssh)
    let what = arguments.joined(separator: " ")
    #expect(local.status == status, "here, \(what): \(local)", sourceLocation: sourceLocation)
    #expect(output(local.stdout + local.stderr), "here, \(what): \(local)", sourceLocation: sourceLocation)
    #expect(remote.status == local.status, "through SSH, \(what): \(remote)", sourceLocation: sourceLocation)
    // A backoff's time left is told relative to now, which moved between the two runs.
    let timeless = { (text: String) in text.replacing(/next try in \d+ s/, with: "next try in N s") }
    #expect(
        timeless(remote.stdout) == timeless(local.stdout), "through SSH, \(what): \(remote)",
        sourceLocation: sourceLocation)
    #expect(
        timeless(remote.stderr) == timeless(local.stderr), "through SSH, \(what): \(remote)",
        sourceLocation: sourceLocation)
}
