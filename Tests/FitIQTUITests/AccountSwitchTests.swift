import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQTUI

/// `:account EMAIL` and the `a` key: another account signed in on this machine, without a restart;
/// nothing typed for the last account is carried to the next.
struct AccountSwitchTests {
    static let bob = AccountView(
        email: "bob@example.com", server: "https://api.fitiq.test", state: fixtureAccount(name: "Bob Doe"))

    static func titleRow(_ state: AppState) -> String { screen(state).lines.first ?? "" }

    @Test func accountAsksForTheSwitchAndTheNewAccountShowsWithoutTheDrafts() {
        var state = profileState(width: 100, height: 30)
        state.knownAccounts = ["jane@example.com", "bob@example.com"]
        #expect(Self.titleRow(state).contains("jane@example.com"))
        // A draft typed for Jane.
        CommandLineTests.command("set weight 72.4", &state)
        #expect(state.profile.drafts[.weight] == "72.4")
        #expect(
            CommandLineTests.command("account bob@example.com", &state) == [.switchAccount(email: "bob@example.com")])
        // Until the account is read, Jane's profile and drafts stay; a field edited meanwhile is hers too.
        #expect(state.account?.email == "jane@example.com")
        #expect(state.profile.drafts[.weight] == "72.4")
        press([.enter] + type(" Jr"), &state)
        #expect(state.profile.editing?.editor.text == "Jane Doe Jr")

        #expect(update(&state, .accountSwitched(Self.bob)).isEmpty)
        #expect(state.account?.email == "bob@example.com")
        #expect(state.profile.drafts.isEmpty)
        #expect(state.profile.editing == nil)
        #expect(state.screen == .profile)
        #expect(state.message?.text == "Now on bob@example.com's profile; the edits not saved were dropped.")
        let lines = screen(state).lines
        #expect(lines.first?.contains("bob@example.com") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.contains("Bob Doe") }, "\(lines)")
        #expect(!lines.contains { $0.contains("72.4") }, "\(lines)")

        // What Jane's work posts after the switch is not shown over Bob's profile.
        let jane = AccountView(email: "jane@example.com", server: "https://api.fitiq.test", state: fixtureAccount())
        _ = update(&state, .accountChanged(jane))
        _ = update(&state, .saved(.measurement(.weight), error: nil, account: jane))
        #expect(state.account?.email == "bob@example.com")
    }

    @Test func tabCompletesTheEmailsAndTheKeyOpensTheLine() {
        var state = profileState(width: 100, height: 30)
        state.knownAccounts = ["jane@example.com", "bob@example.com", "bea@example.com"]
        press([.character("a")], &state)
        #expect(state.commandLine?.text == "account ")
        #expect(state.message?.text == "bob@example.com  bea@example.com")
        press(type("b") + [.tab], &state)
        #expect(state.commandLine?.text == "account b")
        press(type("o") + [.tab], &state)
        #expect(state.commandLine?.text == "account bob@example.com ")
        #expect(press([.enter], &state) == [.switchAccount(email: "bob@example.com")])
        // The one on show already: nothing to do.
        #expect(CommandLineTests.command("account JANE@example.com", &state).isEmpty)
        #expect(state.message?.text == "You are on JANE@example.com's profile already.")
        CommandLineTests.command("account", &state)
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("Say which account") == true)
    }

    @Test func theHelpListsTheKey() {
        var state = profileState(width: 100, height: 60)
        press([.character("?")], &state)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("another account signed in on this machine") }, "\(lines)")
    }
}
