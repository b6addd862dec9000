import FitIQCore
import Foundation
import Testing

@testable import FitIQTUI

/// One key table drives the keys, the footer and the help: every key the profile screen acts on is
/// in the help, and the footer names only keys that do something.
struct KeyTableTests {
    /// Every key a terminal can send that is not text typed into a field.
    static let candidates: [Key] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?/!:;.,-+ ".map { .character($0) }
        + "abcdefghijklmnopqrstuvwxyz".map { .control($0) }
        + [
            .enter, .escape, .tab, .backTab, .backspace, .delete, .up, .down, .left, .right, .home, .end, .pageUp,
            .pageDown, .wordLeft, .wordRight,
        ]

    /// The places the profile screen takes keys in: each field focused, the history list, the sync
    /// details with a conflict and a rejected change.
    static func places() -> [(String, AppState)] {
        var places: [(String, AppState)] = []
        for field in ProfileField.allCases {
            var state = profileState()
            state.canImportHealth = true
            state.profile.focus = field
            places.append(("focus on \(field)", state))
        }
        var list = profileState()
        list.historySelection = 1
        places.append(("the history list", list))
        var details = profileState()
        details.lower = .syncDetails
        var account = details.account?.state ?? .empty
        account.editMetadata(ProfileMetadata(name: "Here", preferredUnitSystem: .metric), now: fixedNow)
        account.outbox.metadata?.conflicts = [.name]
        account.outbox.metadata?.delivery.rejection = "Name is not allowed"
        details.account = AccountSnapshot(email: "jane@example.com", server: "s", state: account)
        places.append(("the sync details", details))
        return places
    }

    /// The help as the screen shows it, every line of it (scrolled through).
    static func helpText() -> String {
        var state = profileState(width: 120, height: 200)
        state.canImportHealth = true
        _ = update(&state, .input(.key(.character("?"))))
        // The panel's lines only, without its borders.
        let lines = screen(state).lines
        guard let top = lines.firstIndex(where: { $0.contains("┌─ Help") }) else { return "" }
        let panel = lines[(top + 1)...].prefix { !$0.contains("└") }
        return panel.map { $0.replacing("│", with: " ") }.joined(separator: "\n")
    }

    @Test func everyKeyTheProfileScreenActsOnIsInTheHelp() {
        let help = Self.helpText()
        var acted = 0
        for (place, state) in Self.places() {
            for key in Self.candidates {
                var after = state
                let effects = update(&after, .input(.key(key)))
                let changed =
                    !effects.isEmpty || after.profile != state.profile || after.overlay != state.overlay
                    || after.historySelection != state.historySelection || after.lower != state.lower
                    || after.shouldQuit != state.shouldQuit || after.detailsScroll != state.detailsScroll
                    || after.message?.text != state.message?.text
                guard changed else { continue }
                acted += 1
                let named = Self.names(of: key).contains { name in
                    help.split(separator: "\n").contains { line in
                        line.split(separator: " ").contains { $0 == name || $0 == name + "," }
                    }
                }
                #expect(named, "\(key.shown) acts on \(place) but the help does not list it")
            }
        }
        #expect(acted > 40)
    }

    @Test func theFooterNamesOnlyKeysThatAct() {
        for (place, state) in Self.places() {
            for hint in KeyTable.hints(state) {
                // `PgUp/PgDn scroll`, `↑↓ choose`, `Ctrl-S save`: any of the keys named may act.
                let named = (hint.split(separator: " ").first.map(String.init) ?? "").split(separator: "/").map(
                    String.init)
                let keys = Self.candidates.filter { key in
                    named.contains {
                        $0 == key.shown || ($0.allSatisfy { "↑↓←→".contains($0) } && $0.contains(key.shown))
                    }
                }
                let acts = keys.contains { key in
                    var after = state
                    let effects = update(&after, .input(.key(key)))
                    return !effects.isEmpty || after.profile != state.profile || after.overlay != state.overlay
                        || after.historySelection != state.historySelection || after.lower != state.lower
                        || after.detailsScroll != state.detailsScroll || after.message?.text != state.message?.text
                }
                #expect(acts, "the footer shows \(hint) on \(place), but no such key acts there")
            }
        }
    }

    @Test func theHelpListsTheMeasurementKeys() {
        let help = Self.helpText()
        for text in ["its history list", "remove the entry", "correct the entry", "undo the last saved change"] {
            #expect(help.contains(text), "\(text)")
        }
    }

    /// How the help may name `key`.
    static func names(of key: Key) -> [String] {
        switch key {
        case .control(let letter): ["Ctrl-" + String(letter).uppercased()]
        default: [key.shown]
        }
    }
}
