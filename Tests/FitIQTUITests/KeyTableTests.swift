import FitIQCore
import FitIQTestBasics
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
        var account = fixtureAccount()
        account.editMetadata(ProfileMetadata(name: "Here", preferredUnitSystem: .metric), now: fixedNow)
        account.outbox.metadata?.conflicts = [.name]
        account.outbox.metadata?.delivery.rejection = "Name is not allowed"
        details.account = AccountView(email: "jane@example.com", server: "s", state: account)
        places.append(("the sync details", details))
        var today = TodayHistoryTests.state()
        today.today.history = EntryChoice(.water)
        today.today.history?.selection = 1
        places.append(("a metric's entries on Today", today))
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

    /// Whether `key` does anything in `state`: an effect, or a change anyone can see.
    static func acts(_ key: Key, on state: AppState) -> Bool {
        var after = state
        let effects = update(&after, .input(.key(key)))
        return !effects.isEmpty || after.profile != state.profile || after.overlay != state.overlay
            || after.historySelection != state.historySelection || after.lower != state.lower
            || after.shouldQuit != state.shouldQuit || after.detailsScroll != state.detailsScroll
            || after.message?.text != state.message?.text || after.screen != state.screen
            || after.progress != state.progress || after.helpScroll != state.helpScroll
            || after.commandLine != state.commandLine || after.today != state.today
    }

    @Test func everyKeyTheProfileScreenActsOnIsInTheHelp() {
        let help = Self.helpText()
        var acted = 0
        for (place, state) in Self.places() {
            for key in Self.candidates {
                guard Self.acts(key, on: state) else { continue }
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
                        || after.commandLine != state.commandLine || after.today != state.today
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

    /// Every other place that takes keys: a field being edited, the progress screen and each box.
    static func otherPlaces() -> [(String, AppState, KeyBinding.Place)] {
        var editing = profileState()
        _ = press([.tab, .enter], &editing)
        var progress = profileState()
        progress.screen = .progress
        let boxes: [(AppState.Overlay, KeyBinding.Place)] = [
            (.help, .help), (.quitPrompt, .quitPrompt), (.discardPrompt, .discardPrompt),
            (.languagePicker(filter: TextField(""), selection: 0), .languagePicker),
            (.importPrompt(path: TextField("/tmp/export.zip"), error: nil), .importPrompt),
            (.importing(path: TextField("/tmp/export.zip"), fraction: 0.5), .importing),
            (.importResult(["Done."]), .importResult),
            (.deleteEntryPrompt(.weight, id: "e1", summary: "72.4 kg"), .removePrompt),
            (.correctEntry(.weight, id: "e1", summary: "72.4 kg", value: TextField("72.4"), error: nil), .correction),
        ]
        return [("editing the bio", editing, .editing), ("the progress screen", progress, .progress)]
            + boxes.map { overlay, place in
                var state = profileState()
                state.overlay = overlay
                return ("the box \(place)", state, place)
            }
    }

    /// In every other place, each key that acts is bound there (or anywhere) and so in the help, or is
    /// text typed into the place's field, or is the place's "any other key".
    @Test func everyKeyThatActsElsewhereIsBoundThere() {
        for (name, state, place) in Self.otherPlaces() {
            #expect(KeyTable.places(state) == [place], "\(name)")
            let bindings = KeyTable.all.filter { $0.place == place }
            let anyOther = bindings.contains(where: \.isAnyOtherKey)
            for key in Self.candidates {
                guard Self.acts(key, on: state) else { continue }
                let bound = (bindings + KeyTable.anywhere).contains { $0.keys.contains(key) }
                let typed: Bool = {
                    if case .character = key { return true }
                    return [.backspace, .delete, .left, .right, .home, .end, .wordLeft, .wordRight].contains(key)
                        || key == .control("a") || key == .control("e") || key == .control("u")
                        || key == .control("k") || key == .control("w")
                }()
                let hasField = [.editing, .importPrompt, .correction, .languagePicker].contains(place)
                #expect(
                    bound || anyOther || (hasField && typed), "\(key.shown) acts on \(name) but is bound to nothing")
            }
        }
    }

    /// The help lists every place's bindings, under the place's title.
    @Test func theHelpHasEveryPlaceAndEveryBinding() {
        let help = Self.helpText()
        for section in KeyTable.helpSections {
            #expect(help.contains(section.title), "\(section.title)")
        }
        for binding in KeyTable.all {
            let start = String(binding.help.prefix(20))
            #expect(help.contains(start), "\(binding.help)")
        }
    }

    /// The key table of docs/keys.md is the key table: generated from it, and checked here.
    @Test func theReadmeKeyTableIsTheKeyTable() throws {
        let readme = try String(
            contentsOf: try #require(RepositoryTools.root).appendingPathComponent("docs/keys.md"), encoding: .utf8)
        let begin = "<!-- keys: generated from Sources/FitIQTUI/KeyTable.swift -->\n"
        let end = "\n<!-- /keys -->"
        let start = try #require(readme.range(of: begin), "docs/keys.md has no \(begin)")
        let stop = try #require(readme.range(of: end, range: start.upperBound..<readme.endIndex))
        let table = String(readme[start.upperBound..<stop.lowerBound])
        #expect(
            table == KeyTable.markdown,
            "docs/keys.md's key table differs from KeyTable; put this between its markers:\n\(KeyTable.markdown)")
    }
}
