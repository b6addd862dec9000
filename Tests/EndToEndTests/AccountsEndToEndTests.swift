import FitIQTestSupport
import Foundation
import Testing

/// Two accounts in a real terminal: the editor opened with `--account` shows that account, and
/// `:account` (the email completed with Tab) switches to the other without a restart. Every step waits
/// for the whole screen it expects.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct AccountsEndToEndTests {
    static let bob = "bob@example.com"

    @Test func theEditorOpensOnTheAccountNamedAndSwitchesWithAccount() async throws {
        try await withEndToEnd { e2e, server in
            #expect(try await e2e.register(on: server).status == 0)
            let registered = try await e2e.cli(
                [
                    "register", "--server", server.url, "--email", Self.bob, "--name", "Bob Roe", "--date-of-birth",
                    "1990-01-31",
                ], input: EndToEnd.password + "\n")
            #expect(registered.status == 0, "\(registered)")
            // Jane is made the default: the flag, not the default, opens Bob's profile.
            #expect(try await e2e.cli(["accounts", "use", EndToEnd.email]).status == 0)

            let tui = try e2e.openTUI(
                arguments: ["--account", Self.bob], extraEnvironment: ["FITIQ_SERVER": server.url])
            defer { tui.kill() }
            try await tui.waitUntil("Bob's synced profile") {
                $0.title.contains(Self.bob) && $0.title.contains("● synced")
                    && $0.field("Name")?.contains("Bob Roe") == true
            }
            // A draft for Bob, then the switch: Jane's profile shows without it.
            try await tui.send(":")
            try await tui.type("set name Robert")
            try await tui.send("Enter")
            try await tui.waitUntil("Bob's draft") { $0.field("Name")?.contains("Robert *") == true }
            try await tui.send(":")
            try await tui.type("account ja")
            try await tui.send("Tab")
            try await tui.waitFor(":account jane@example.com")
            try await tui.send("Enter")
            try await tui.waitUntil("Jane's synced profile, the draft dropped") {
                $0.title.contains(EndToEnd.email) && !$0.title.contains(Self.bob) && $0.title.contains("● synced")
                    && $0.field("Name")?.contains(EndToEnd.name) == true
                    && $0.contains { $0.contains("the edits not saved were dropped") }
            }
        }
    }
}
