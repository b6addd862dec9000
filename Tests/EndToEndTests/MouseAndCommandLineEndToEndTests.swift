import FitIQTestSupport
import Foundation
import Testing

/// The mouse and the `:` line in a real terminal: tmux with `TERM=xterm-256color`, reports written as a terminal writes
/// them in SGR mode (`ESC [ < 0 ; X ; Y M` then `m`, the wheel `ESC [ < 65 ; X ; Y M`), each place
/// found on the screen as it is drawn. Every step waits for the whole state it expects.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct MouseAndCommandLineEndToEndTests {
    static let term = "xterm-256color"

    @Test func aClickFocusesAndEditsTheWheelScrollsAndAFooterHintActs() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            for kilograms in ["81.0", "80.5", "80.0"] {
                #expect(try await e2e.cli(["weight", "set", kilograms, "--no-sync"]).status == 0)
            }
            #expect(try await e2e.cli(["sync", "--wait"]).status == 0)
            let tui = try e2e.openTUI(server: server, term: Self.term)
            defer { tui.kill() }
            try await waitForProfile(tui)
            #expect(try await tui.mouseReportsOn())

            try await tui.click(on: "Weight ")
            try await tui.waitFor(all: ["›Weight", "Weight history", "80.0 kg  manual"])
            try await tui.click(on: "Weight ")
            try await tui.waitFor("Enter confirm")  // a click on the focused field edits it
            try await tui.send("C-u")
            try await tui.type("79.5")
            try await tui.send("Enter")
            try await tui.waitUntil("the draft") { $0.field("Weight")?.contains("79.5 *") == true }
            try await tui.send("C-s")
            try await tui.waitUntil("the weight saved and synced") { rows in
                rows.contains { $0.contains("Weight saved.") } && rows.contains { $0.contains("79.5 kg  manual") }
                    && rows.title.contains("● synced") && !rows.title.contains("pending")
            }

            // The wheel over the history list walks its entries.
            try await tui.click(on: "80.5 kg  manual")
            try await tui.waitUntil("the entry chosen") {
                $0.contains { $0.contains("›") && $0.contains("80.5 kg  manual") }
            }
            try await tui.wheel(down: true)
            try await tui.waitUntil("the next entry chosen") {
                $0.contains { $0.contains("›") && $0.contains("81.0 kg  manual") }
            }
            try await tui.wheel(down: false)
            try await tui.wheel(down: false)
            try await tui.waitUntil("two entries back") {
                $0.contains { $0.contains("›") && $0.contains("80.0 kg  manual") }
            }

            // A hint of the footer does what its key does; a click outside a box closes it.
            let footer = try await tui.lines().count - 1
            try await tui.click(on: "? help", below: footer)
            try await tui.waitFor("─ Help")
            try await tui.click(x: 0, y: 1)
            try await tui.waitUntil("the help closed") { !$0.contains { $0.contains("─ Help") } }
            try await tui.send("Escape")
            try await tui.waitUntil("the form again") { rows in rows.last?.contains("p progress") == true }
            try await tui.click(on: "p progress", below: footer)
            try await tui.waitFor(all: ["Weight · 4 weeks", "Latest 79.5 kg on"])
            try await tui.click(on: "←/→ range", below: footer)
            try await tui.waitFor("Weight · 3 months")

            // Leaving gives the mouse back to the terminal.
            try await tui.send("Escape")
            try await tui.waitFor("p progress")
            try await tui.send("q")
            #expect(try await e2e.waitForExitStatus(of: tui) == 0)
            #expect(try await tui.mouseReportsOn() == false)
        }
    }

    @Test func theCommandLineSavesAWeightAndRefusesABadOne() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let tui = try e2e.openTUI(server: server, term: Self.term)
            defer { tui.kill() }
            try await waitForProfile(tui)
            try await tui.send(":")
            try await tui.waitFor("Enter run")
            try await tui.type("set weight 900")
            try await tui.send("Enter")
            // The rule, and the line kept to correct.
            try await tui.waitFor(all: ["Weight must be between", ":set weight 900"])
            try await tui.send("BSpace", "BSpace", "BSpace")
            try await tui.type("72.4")
            try await tui.send("Enter")
            try await tui.waitUntil("the draft") { $0.field("Weight")?.contains("72.4 *") == true }
            try await tui.send(":")
            try await tui.type("sa")
            try await tui.send("Tab")
            try await tui.waitFor(":save")
            try await tui.send("Enter")
            try await tui.waitUntil("the weight saved and synced") { rows in
                rows.contains { $0.contains("Weight saved.") } && rows.field("Weight")?.contains("72.4 kg") == true
                    && rows.title.contains("● synced") && !rows.title.contains("pending")
            }
            #expect(try await server.snapshot().weightEntries == [72.4])
            // ↑ brings the last line back; Esc closes without running it.
            try await tui.send(":")
            try await tui.send("Up")
            try await tui.waitFor(":save")
            try await tui.send("Escape")
            try await tui.waitUntil("the line closed") { rows in rows.last?.contains("p progress") == true }
        }
    }

    /// The three ways to leave the mouse to the terminal.
    enum MouseOff: String, CaseIterable, Sendable {
        case flag = "--no-mouse", environment = "FITIQ_MOUSE=0", configFile = "\"mouse\": false"
    }

    @Test(arguments: MouseOff.allCases)
    func withTheMouseOffAClickIsLeftToTheTerminal(_ off: MouseOff) async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            var environment = ["FITIQ_SERVER": server.url]
            switch off {
            case .flag: break
            case .environment: environment["FITIQ_MOUSE"] = "0"
            case .configFile:
                let config = try #require(e2e.environment["XDG_CONFIG_HOME"])
                let folder = URL(fileURLWithPath: config).appendingPathComponent("fitiq")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(#"{"mouse": false}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
            }
            let tui = try e2e.openTUI(
                arguments: off == .flag ? ["--no-mouse"] : [], extraEnvironment: environment, term: Self.term)
            defer { tui.kill() }
            try await waitForProfile(tui)
            #expect(try await tui.mouseReportsOn() == false)
            try await tui.click(on: "Weight ")
            // The click's bytes, had they arrived, do nothing; a key after them still acts.
            try await tui.send("Tab")
            try await tui.waitFor("›Bio")
            #expect(try await tui.lines().contains { $0.contains("›Weight") } == false)
        }
    }

    @Test func aClickFocusesAndTheCommandLineSavesAt40By12ThroughSSH() async throws {
        try await EndToEnd.with { e2e in
            try await SSHServer.with { ssh in
                try await e2e.withServer { server in
                    #expect(try await e2e.register(on: server).status == 0)
                    let tui = try e2e.openTUI(server: server, term: Self.term, ssh: ssh, size: (40, 12))
                    defer { tui.kill() }
                    // The account's address is cut short in the title at this width.
                    try await tui.waitUntil("the synced profile") { rows in
                        rows.title.contains("● synced")
                            && rows.contains { $0.contains("Name") && $0.contains(EndToEnd.name) }
                    }
                    try await tui.click(on: "Bio ")
                    try await tui.waitFor("›Bio")
                    let footer = try await tui.lines().count - 1
                    try await tui.click(on: "? help", below: footer)
                    try await tui.waitFor("─ Help")
                    try await tui.wheel(down: true)
                    try await tui.waitUntil("the help scrolled") { rows in
                        rows.contains { $0.contains("─ Help") && $0.contains("2–") }
                    }
                    // The command line too, at this size and through SSH.
                    try await tui.send("Escape")
                    try await tui.waitUntil("the help closed") { !$0.contains { $0.contains("─ Help") } }
                    try await tui.send(":")
                    try await tui.type("set bio From afar")
                    try await tui.waitFor(":set bio From afar")
                    try await tui.send("Enter")
                    try await tui.waitFor("From afar *")
                    try await tui.send(":")
                    try await tui.type("save")
                    try await tui.send("Enter")
                    // The save's own message: until it comes, the `:set` line's "Bio will be From afar once
                    // you save." shows the bio without a mark while the title still says synced from before.
                    try await tui.waitUntil("the bio saved and synced") { rows in
                        rows.contains { $0.contains("Profile saved.") }
                            && rows.contains { $0.contains("From afar") && !$0.contains("*") }
                            && rows.title.contains("● synced") && !rows.title.contains("pending")
                    }
                    #expect(try await server.snapshot().bio == "From afar")
                }
            }
        }
    }
}
