import FitIQTestBasics
import FitIQTestSupport
import Foundation
import Testing

/// The editor in other languages on a real terminal: `fitiq-tui demo` in tmux at the smallest size it
/// supports (40×12) and a large one (120×40), in German from FITIQ_LANG, switched to French by saving the
/// profile's language, and in the pseudo-language `qps`, where nothing of ours may show unbracketed.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct LanguageEndToEndTests {
    static let sizes: [(Int, Int)] = [(40, 12), (120, 40)]

    /// Runs `body` with `fitiq-tui demo` open in tmux at `size`, in `language` (FITIQ_LANG) if given.
    static func withDemo(
        language: String? = nil, size: (Int, Int), _ body: (TmuxSession) async throws -> Void
    ) async throws {
        try await EndToEnd.with { e2e in
            let tui = try e2e.openTUI(
                arguments: ["demo"], extraEnvironment: language.map { ["FITIQ_LANG": $0] } ?? [:],
                size: (size.0, size.1))
            defer { tui.kill() }
            try await body(tui)
        }
    }

    /// The demo's profile screen with what every size shows of it, and its footer's help hint.
    static func profileScreen(_ rows: [String], _ parts: [String], help: String) -> Bool {
        rows.title.contains("fitiq-tui") && rows.contains { $0.contains("Alex Demo") }
            && parts.allSatisfy { part in rows.contains { $0.contains(part) } }
            && rows.last?.contains(help) == true
    }

    @Test(arguments: sizes)
    func theDemoSpeaksGermanInTheEditorTheProgressScreenAndTheHelp(size: (Int, Int)) async throws {
        try await Self.withDemo(language: "de", size: size) { tui in
            let profile = TmuxSession.rows(
                of: try await tui.waitUntil("the demo's profile in German") {
                    Self.profileScreen(
                        $0, ["● synchronisiert", "┌─ Profil ─", "┌─ Körper ─", "Maßsystem", "metrisch", "Gewicht"],
                        help: "? Hilfe")
                        && $0.contains { $0.contains("Enter ändern") }
                })
            // Numbers take the decimal comma; nothing is left in English.
            #expect(profile.contains { $0.contains("Größe") && $0.contains(",0 cm") }, "\(profile)")
            #expect(profile.contains { $0.contains("Gewicht") && $0.contains(" kg · heute") }, "\(profile)")
            for english in ["synced", "Physical", "Weight", "Enter edit", "help", "today"] {
                #expect(!profile.joined().contains(english), "\(english): \(profile.joined(separator: "\n"))")
            }

            try await tui.send("p")
            let progress = TmuxSession.rows(
                of: try await tui.waitUntil("the progress screen in German, its chart drawn") { rows in
                    rows.contains { $0.contains("┌─ Gewicht · 4 Wochen ─") }
                        && rows.contains { $0.contains(" kg ┤") && $0.contains(",") }
                        && rows.contains { $0.contains(" Trend ") } && rows.last?.contains("←/→ Zeitraum") == true
                        && rows.last?.contains("? Hilfe") == true
                })
            #expect(!progress.joined().contains("weeks"), "\(progress.joined(separator: "\n"))")

            try await tui.send("Escape")
            try await tui.waitUntil("the profile again") {
                Self.profileScreen($0, ["Enter ändern"], help: "? Hilfe")
            }
            try await tui.send("?")
            try await tui.waitUntil("the help in German") { rows in
                rows.contains { $0.contains("─ Hilfe 1–") } && rows.contains { $0.contains(" Profil ") }
                    && rows.contains { $0.contains("das Feld bearbeiten") } && rows.contains { $0.contains("Ctrl-S") }
            }
        }
    }

    @Test(arguments: sizes)
    func savingFrenchAsTheDemosLanguageSwitchesTheEditorToFrench(size: (Int, Int)) async throws {
        // No FITIQ_LANG, a locale without a language: the profile's language (English) speaks.
        try await Self.withDemo(size: size) { tui in
            try await tui.waitUntil("the demo's profile in English") {
                Self.profileScreen($0, ["● synced", "┌─ Profile ─", "┌─ Physical ─", "Language"], help: "? help")
            }

            // Given French picked from the language list
            try await tui.send("Tab", "Tab", "Tab", "Enter")
            try await tui.waitFor(all: ["─ Language ", "› en", "Filter:"])
            try await tui.type("fr")
            try await tui.waitFor(all: ["› fr       Français", "Filter: fr"])
            try await tui.send("Enter")
            try await tui.waitUntil("fr as a draft") { $0.row(containing: "Language")?.contains("fr *") == true }

            // When it is saved
            try await tui.send("C-s")

            // Then the editor speaks French, numbers with the decimal comma
            let saved = TmuxSession.rows(
                of: try await tui.waitUntil("the profile in French") {
                    Self.profileScreen(
                        $0, ["● synchronisé", "┌─ Profil ─", "┌─ Physique ─", "Enter modifier"],
                        help: "? aide")
                        && $0.row(containing: "Langue")?.contains("fr") == true
                        && $0.row(containing: "Langue")?.contains("*") == false
                })
            #expect(saved.contains { $0.contains("Taille") && $0.contains(",0 cm") }, "\(saved)")
            if let bmi = saved.row(containing: "IMC") {
                #expect(bmi.contains(try Regex(#"IMC +\d+,\d · "#)), "the BMI with a comma too: \(bmi)")
            }
            try await tui.send("p")
            try await tui.waitUntil("the progress screen in French") { rows in
                rows.contains { $0.contains("┌─ Poids · 4 semaines ─") } && rows.contains { $0.contains(" kg ┤") }
                    && rows.last?.contains("←/→ période") == true
            }
            try await tui.send("?")
            try await tui.waitUntil("the help in French") { rows in
                rows.contains { $0.contains("─ Aide 1–") } && rows.contains { $0.contains("modifier le champ") }
            }
        }
    }

    /// What the demo shows of its user's data (possibly cut at the edge of a box), and units.
    static let demoData = [
        "fitiq-tui", "demo@fitiq.dev", "Alex", "Demo", "account", "of", "the", "FitIQ", "development", "server",
        "cm", "kg", "%", "en",
    ]

    /// What `rows` shows outside brackets that is neither the demo's data nor a unit or a key.
    static func unbracketed(_ rows: [String]) -> [String] {
        PseudoLanguageScreen.wordsOutsideBrackets(in: rows) { word in demoData.contains { $0.hasPrefix(word) } }
    }

    /// What is broken in the layout of `rows`, a screen `width` wide: a row wider than the screen, or a
    /// box (a top corner `┌` and its `┐`, boxes drawn inside counted) without its two sides on every row
    /// below down to its bottom corner `└`, or to the footer when the screen cuts the box.
    static func brokenLayout(_ rows: [String], width: Int) -> [String] {
        let grid = rows.map { Array($0) }
        var problems = grid.enumerated().filter { $0.element.count > width }.map { "row \($0.offset) too wide" }
        let sides: Set<Character> = ["│", "├", "┤", "┌", "└", "┐", "┘"]
        for (y, row) in grid.enumerated() {
            for (x, character) in row.enumerated() where character == "┌" {
                var depth = 0
                var end: Int?
                for index in x..<row.count {
                    if row[index] == "┌" { depth += 1 }
                    if row[index] == "┐" { depth -= 1 }
                    if depth == 0 {
                        end = index
                        break
                    }
                }
                guard let end else { continue }
                for below in grid[(y + 1)..<max(y + 1, grid.count - 1)] {
                    let left = below.count > x ? below[x] : " "
                    if left == "└" { break }
                    if !sides.contains(left) || !sides.contains(below.count > end ? below[end] : " ") {
                        problems.append("the box at \(x),\(y) is open on \(String(below))")
                        break
                    }
                }
            }
        }
        return problems
    }

    @Test(arguments: sizes)
    func thePseudoLanguageLeavesNoTextOfOursOutsideBracketsAndKeepsItsLayout(size: (Int, Int)) async throws {
        try await Self.withDemo(language: "qps", size: size) { tui in
            var screens: [(String, [String])] = []
            screens.append(
                (
                    "profile",
                    TmuxSession.rows(
                        of: try await tui.waitUntil("the profile in qps, drawn whole") {
                            Self.profileScreen(
                                $0, ["● [synced ", "[Profile ~~]", "[Physical ~~~]"], help: "[? help ~~]")
                                && Self.brokenLayout($0, width: size.0).isEmpty
                        })
                ))
            try await tui.send("p")
            screens.append(
                (
                    "progress",
                    TmuxSession.rows(
                        of: try await tui.waitUntil("the progress screen in qps, its chart drawn whole") { rows in
                            rows.contains { $0.contains("┌─ [Weight ~~] · [4 weeks ~~] ─") }
                                && rows.contains { $0.contains(" kg ┤") } && rows.last?.contains("[? help ~~]") == true
                                && Self.brokenLayout(rows, width: size.0).isEmpty
                        })
                ))
            try await tui.send("Escape")
            try await tui.waitUntil("the profile again") {
                Self.profileScreen($0, ["[Physical ~~~]"], help: "[? help ~~]")
            }
            try await tui.send("?")
            screens.append(
                (
                    "help",
                    TmuxSession.rows(
                        of: try await tui.waitUntil("the help in qps, drawn whole") { rows in
                            rows.contains { $0.contains("─ [Help ~] 1–") } && rows.contains { $0.contains("Ctrl-S") }
                                && rows.contains { $0.contains("[Profile ~~]") }
                                && Self.brokenLayout(rows, width: size.0).isEmpty
                        })
                ))
            for (name, rows) in screens {
                let text = rows.joined(separator: "\n")
                #expect(rows.count == size.1, "\(name):\n\(text)")
                #expect(Self.unbracketed(rows) == [], "\(name):\n\(text)")
            }
        }
    }
}
