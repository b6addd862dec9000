import FitIQCatalogs
import FitIQCore
import FitIQLocalization
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQTUI

/// The editor in other languages: the screens speak the state's language (FITIQ_LANG, else the profile's,
/// else the environment's), a saved language speaks from the next frame, numbers take the language's
/// decimal separator, every screen fits 40×12 in every language, and in the pseudo-language `qps` no
/// text of ours shows outside brackets.
struct LanguageScreenTests {
    static let languages = ["de", "es", "fr", "pt_BR", "qps"]

    /// `state` speaking `code` through `FITIQ_LANG`, with the embedded catalogs.
    static func speaking(_ code: String, _ state: AppState) -> AppState {
        var state = state
        state.language = EditorLanguage(settings: LanguageSettings(override: code), catalogs: .embedded)
        return state
    }

    /// The fixture account with its profile's language set to `code`.
    static func account(language code: String) -> AccountState {
        var account = fixtureAccount()
        if let profile = account.profile {
            var metadata = profile.metadata
            metadata.languageCode = code
            account.profile = profile.updatingMetadata(metadata)
        }
        return account
    }

    @Test func theProfileScreenHelpAndFooterSpeakGermanWithDecimalCommas() {
        let state = Self.speaking("de", profileState(width: 80, height: 24))
        let text = screen(state).lines.joined(separator: "\n")
        for expected in [
            "Profil", "›Name", "Körper", "Größe", "Maßsystem", "Geschlecht", "Enter ändern", "? Hilfe",
        ] {
            #expect(text.contains(expected), "\(expected)\n\(text)")
        }
        #expect(text.contains(",0 cm") || text.contains(",5 cm"), "\(text)")
        #expect(!text.contains("Enter edit"))
        var help = state
        press([.character("?")], &help)
        let helpText = screen(help).lines.joined(separator: "\n")
        #expect(helpText.contains("Hilfe") && helpText.contains("das Feld bearbeiten"), "\(helpText)")
    }

    @Test func theProgressScreenSpeaksGerman() {
        var state = Self.speaking("de", profileState(width: 100, height: 30))
        state.profile.focus = .weight
        press([.character("p")], &state)
        _ = update(&state, .progressLoaded(ProgressScreenTests.history()))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Gewicht · 4 Wochen") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("Zuletzt 80,1 kg am") })
        #expect(lines.contains { $0.contains("kg pro Woche in den letzten 4 Wochen") && $0.contains("Trend ") })
        #expect(lines.contains { $0.contains("Tiefstwert 80,1 kg am") })
    }

    @Test func theProfilesLanguageSpeaksUnlessFITIQLangSaysOtherwise() {
        var state = profileState(width: 80, height: 24)
        state.language = EditorLanguage(
            settings: LanguageSettings(environment: ["LANG": "de_DE.UTF-8"]), catalogs: .embedded)
        #expect(
            !screen(state).lines.joined().contains("Körper"), "the profile's English before the environment's German")
        show(Self.account(language: ""), in: &state)
        #expect(screen(state).lines.joined().contains("Körper"), "the environment's German without a profile language")
        show(Self.account(language: "es"), in: &state)
        #expect(screen(state).lines.joined().contains("Estatura"), "the profile's Spanish")
        state.language = EditorLanguage(
            settings: LanguageSettings(environment: ["FITIQ_LANG": "pt-BR", "LANG": "de_DE.UTF-8"]),
            catalogs: .embedded)
        #expect(screen(state).lines.joined().contains("Altura"), "FITIQ_LANG first")
    }

    @Test func savingFrenchInTheEditorSpeaksFrenchFromTheNextFrame() {
        var state = profileState(width: 80, height: 24)
        state.language = EditorLanguage(catalogs: .embedded)
        #expect(screen(state).lines.joined().contains("Physical"))
        // Given the language picked and saved
        press([.tab, .tab, .tab, .enter] + type("fr") + [.enter, .control("s")], &state)
        #expect(state.profile.drafts[.language] == "fr")
        // When the save comes back with the profile in French
        let saved = AccountView(
            email: "jane@example.com", server: "https://api.fitiq.test", state: Self.account(language: "fr"))
        _ = update(&state, .saved(.metadata, error: nil, account: saved))
        // Then the next frame is French, the message of the save included
        let text = screen(state).lines.joined(separator: "\n")
        #expect(text.contains("Physique") && text.contains("Langue"), "\(text)")
        #expect(state.message?.text == "Profil enregistré.", "said in the language just saved")
        _ = update(&state, .nothingToSave(.metadata))
        #expect(state.message?.text == "Rien à enregistrer.")
    }

    /// A try that failed while the screen spoke English is explained in the language of the moment.
    @Test func whyTheLastTryFailedIsSaidInTheLanguageOfNow() throws {
        // Given a height that did not go out, its reason recorded while English was in force
        var account = fixtureAccount()
        account.record(.height, 181, measuredAt: fixedNow, source: .manual)
        let patch = SyncOperation.updatePhysical(PhysicalPatch(heightCm: 181), revision: 1)
        account.begin(patch, owner: UUID(), now: fixedNow)
        let refused = RemoteError.unreachable(message: .connectionRefused)
        account.finish(patch, outcome: .retry(.remote(refused)), now: fixedNow, random: 0)
        // When the sync details are shown in German
        var state = Self.speaking("de", profileState(width: 200, height: 40))
        show(account, in: &state)
        press([.character("h")], &state)
        // Then the reason is German, down to the transport's own words
        let text = screen(state).lines.joined(separator: "\n")
        #expect(
            text.contains("Der Server war nicht erreichbar: Verbindung abgelehnt (läuft der Server?)"), "\(text)")
        #expect(!text.contains("could not be reached") && !text.contains("refused"), "\(text)")
    }

    /// At 40×12 the progress screen's sentences fold into one line; a language whose line is longer drops
    /// the latest value, then the rate, and never shows a line cut in the middle of a unit.
    @Test(arguments: languages)
    func theFoldedProgressLineIsNeverCut(code: String) {
        let state = Self.speaking(code, ProgressScreenTests.opened(graphics: .ascii, width: 40, height: 12))
        let line = screen(state).lines[2].dropFirst(2).dropLast(2)
        // What the trend's template says before its value ("tendance ", "[trend ").
        let template = FitIQWords.speaking(state.localizer) { tr("trend {value}", ["value": "\u{1}"]) }
        let trend = template.prefix { $0 != "\u{1}" }
        #expect(line.contains(trend), "\(code): \(line)")
        let last = line.trimmingCharacters(in: .whitespaces).last
        #expect(
            last.map { $0.isNumber || $0.isLetter || $0 == "." || $0 == "%" || $0 == "]" } == true, "\(code): \(line)")
    }

    /// At 40×12 the import's question wraps onto three or four lines, and every line of it shows above
    /// the path being typed.
    @Test(arguments: ["en"] + languages)
    func theImportQuestionShowsWholeAtFortyByTwelve(code: String) {
        var state = Self.speaking(code, LayoutTests.Screen.importPrompt.state(width: 40, height: 12))
        press(type("~/export.zip"), &state)
        let text = screen(state).lines.joined(separator: "\n")
        let question = FitIQWords.speaking(state.localizer) {
            tr("The export to import (a file, zip or folder); ~ allowed:")
        }
        for word in question.split(separator: " ").map({ $0.split(separator: "\u{A0}").last ?? $0 }) {
            #expect(text.contains(word), "\(code): \(word) is missing\n\(text)")
        }
        #expect(text.contains("› ~/export.zip") || text.contains("›~/export.zip"), "\(text)")
    }

    /// A panel longer than the screen says which of its lines show in its title; a long German title
    /// gives way to that count, not the reverse.
    @Test func aLongPanelTitleKeepsItsLineCount() {
        var state = Self.speaking("de", profileState(width: 40, height: 12))
        state.overlay = .importResult((1...13).map { "line \($0)" })
        let title = screen(state).lines.first { $0.contains("┌") && $0.contains("Gesundheitsdaten") } ?? ""
        #expect(
            title.range(of: #"Gesundheitsdaten [^ ]*… 1–\d+/\d+ ─"#, options: .regularExpression) != nil, "\(title)")
    }

    /// A French sync state leaves the account little room at 40 columns: cut, it ends in "…", so that it
    /// never reads as a whole address.
    @Test func aCutAccountInTheTitleBarEndsInAnEllipsis() {
        let title = screen(Self.speaking("fr", profileState(width: 40, height: 12))).lines[0]
        #expect(title.contains(" · jane@") && title.contains("…") && !title.contains("example.com"), "\(title)")
    }

    /// A no-break space, which the catalogs put in "z. B." and between a number and its unit, never
    /// breaks a line: the words it joins move to the next line together.
    @Test func aNoBreakSpaceHoldsItsWordsTogether() {
        #expect(wrap("ist z. B. gut", width: 6) == ["ist z.", "B. gut"])
        #expect(wrap("ist z.\u{A0}B. gut", width: 6) == ["ist", "z.\u{A0}B.", "gut"])
    }

    /// The history list is as wide as its rows: a pending entry's marker shows whole in every language
    /// ("(ausstehend)" is wider than "(pending)").
    @Test(arguments: languages)
    func aPendingEntrysMarkerShowsWholeInTheHistoryList(code: String) {
        var account = fixtureAccount()
        account.record(.height, 181, measuredAt: fixedNow, source: .manual)
        var state = Self.speaking(code, profileState(width: 120, height: 40))
        show(account, in: &state)
        let marker = FitIQWords.speaking(state.localizer) { tr("(pending)") }
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains(marker) }, "\(code): \(lines.joined(separator: "\n"))")
    }

    /// The chart's legend keeps three blank columns from the dates beside it in every language, so
    /// that its last word never reads on into a month's name ("tendance août").
    @Test(arguments: ["en"] + languages)
    func theChartsLegendStandsApartFromTheMonths(code: String) {
        let localizer = Catalogs.embedded.localizer(Language(code: code))
        // A reading a month for two years: a month's name at each 1st.
        let entries = (0..<24).map { month in
            ProgressEntry(
                serverId: "m\(month)", quantity: 170 + Double(month % 3),
                loggedAt: fixedNow.addingTimeInterval(-Double(month) * 30.5 * 86_400), source: .server)
        }
        for width in 90...120 {
            var buffer = CellBuffer(width: width, height: 8)
            let legend = FitIQWords.speaking(localizer) {
                HistoryChart.render(
                    entries, metric: .height, unitSystem: .metric, timeZone: .utc, graphics: .ascii, into: &buffer,
                    x: 0, y: 0, width: width, height: 8, style: .plain)
                return ". " + tr("readings") + "  * " + tr("trend")
            }
            guard let dates = buffer.lines.first(where: { $0.contains(legend) }), let at = dates.range(of: legend)
            else {
                Issue.record("\(code) \(width): no legend in \(buffer)")
                continue
            }
            let before = dates[..<at.lowerBound].suffix(3)
            let after = dates[at.upperBound...].prefix(3)
            #expect(
                before.count == 3 && before.allSatisfy { $0 == " " } && after.allSatisfy { $0 == " " },
                "\(code) \(width): \(dates)")
        }
    }

    @Test(arguments: languages, LayoutTests.Screen.allCases)
    func everyScreenFitsFortyByTwelveInEveryLanguage(code: String, kind: LayoutTests.Screen) {
        for size in LayoutTests.sizes {
            let state = Self.speaking(code, kind.state(width: size.0, height: size.1))
            let lines = screen(state).lines
            #expect(lines.count == size.1)
            #expect(lines.allSatisfy { DisplayWidth.of($0) == size.0 }, "\(code) \(kind) \(size)")
            // The footer always ends with the help hint (not on the sign-in screen, which has no help).
            if kind != .signIn && kind != .register && state.overlay == nil {
                let help = FitIQWords.speaking(state.localizer) { tr("? help") }
                #expect(lines.last?.contains(help) == true, "\(code) \(kind) \(size): \(lines.last ?? "")")
            }
        }
    }

    @Test(arguments: ["de", "es", "fr", "pt_BR"])
    func everyProfileLabelShowsWhole(code: String) {
        let state = Self.speaking(code, profileState(width: 80, height: 30))
        let text = screen(state).lines.joined(separator: "\n")
        let labels = FitIQWords.speaking(state.localizer) { ProfileField.allCases.map(\.label) }
        for label in labels {
            #expect(label.count <= 14 && text.contains(label), "\(code): \(label)")
        }
    }

    /// What may show outside brackets in `qps`: the user's data, numbers, units, dates, key names and the
    /// drawing of boxes and charts.
    static let allowedOutsideBrackets: Set<String> = [
        "fitiq-tui", "jane@example.com", "Jane", "Doe", "Trail", "runner", "https://api.fitiq.test", "cm", "kg", "lb",
        "in", "ft", "%", "en",
    ]

    @Test(arguments: [(40, 12), (120, 40)], LayoutTests.Screen.allCases)
    func thePseudoLanguageLeavesNoTextOfOursOutsideBrackets(size: (Int, Int), kind: LayoutTests.Screen) {
        let state = Self.speaking("qps", kind.state(width: size.0, height: size.1))
        let leftovers = PseudoLanguageScreen.wordsOutsideBrackets(in: screen(state).lines) { word in
            // The user's data may be cut at the edge of the screen or of a box.
            Self.allowedOutsideBrackets.contains { $0.hasPrefix(word) } || word == "Doex" || Self.isLanguageName(word)
        }
        #expect(leftovers == [], "\(kind) \(size)")
    }

    static func isLanguageName(_ word: String) -> Bool {
        LanguageChoices.all.contains { $0.name.contains(word) || $0.code == word }
    }
}
