import FitIQLocalization
import Testing

/// Messages in a language: lookups, placeholders, plurals, the pseudo-language, numbers, days, and the
/// language of one task never leaking into another.
struct LocalizerTests {
    static let german = Catalog(
        po: #"""
            msgid ""
            msgstr ""
            "Plural-Forms: nplurals=2; plural=(n != 1);\n"

            msgid "Saved {field}."
            msgstr "{field} gespeichert."

            msgid "today"
            msgstr "heute"

            msgid "{count} day ago"
            msgid_plural "{count} days ago"
            msgstr[0] "vor {count} Tag"
            msgstr[1] "vor {count} Tagen"
            """#)
    static let catalogs = Catalogs(codes: ["de"]) { $0 == "de" ? german : nil }

    @Test func englishIsTheDefaultAndSaysTheMessageAsWritten() {
        #expect(Localizer.current.language == .english)
        #expect(tr("Saved {field}.", ["field": "Name"]) == "Saved Name.")
        #expect(trn("{count} day ago", "{count} days ago", count: 1) == "1 day ago")
        #expect(trn("{count} day ago", "{count} days ago", count: 0) == "0 days ago")
    }

    @Test func aLanguageInForceTranslatesAndFallsBackToEnglishForWhatItLacks() {
        Localizer.$current.withValue(Self.catalogs.localizer(Language(code: "de"))) {
            #expect(tr("Saved {field}.", ["field": "Name"]) == "Name gespeichert.")
            #expect(trn("{count} day ago", "{count} days ago", count: 3) == "vor 3 Tagen")
            #expect(tr("yesterday") == "yesterday")
            #expect(Phrase("today").text == "heute")
        }
        #expect(Self.catalogs.localizer(Language(code: "fr")).language == .english)
    }

    @Test func placeholdersAreFilledAfterTheLookupAndBracesCanBeWritten() {
        #expect(tr("{a} and {b}", ["b": "2", "a": "1"]) == "1 and 2")
        #expect(tr("{missing} {{literal}}") == "{missing} {literal}")
        #expect(tr("{count} of {count}", ["count": "x{count}"]) == "x{count} of x{count}")
    }

    @Test func thePseudoLanguageBracketsAndLengthensEveryMessageByFortyPercent() {
        Localizer.$current.withValue(.pseudo) {
            let text = tr("Saved {field}.", ["field": "Name"])
            #expect(text.hasPrefix("[Saved Name.") && text.hasSuffix("]"))
            let bare = tr("Saved {field}.")
            #expect(Double(bare.count) >= 1.4 * Double("Saved {field}.".count))
            #expect(trn("{count} day ago", "{count} days ago", count: 2).hasPrefix("[2 days ago"))
            #expect(Localizer.current.decimal("72.4") == "72,4")
        }
    }

    @Test(arguments: [("en", "72.4"), ("de", "72,4"), ("es", "72,4"), ("fr", "72,4"), ("pt_BR", "72,4")])
    func writesTheDecimalSeparatorOfTheLanguage(code: String, shown: String) {
        #expect(Localizer(language: Language(code: code), catalog: nil).decimal("72.4") == shown)
    }

    @Test func saysHowManyDaysAgo() {
        let german = Self.catalogs.localizer(Language(code: "de"))
        #expect(german.daysAgo(0) == "heute")
        #expect(german.daysAgo(3) == "vor 3 Tagen")
        #expect(Localizer.english.daysAgo(1) == "yesterday")
        #expect(Localizer.english.daysAgo(-2) == "in 2 days")
    }

    @Test func tasksRunningAtOnceEachKeepTheirOwnLanguage() async {
        let german = Self.catalogs.localizer(Language(code: "de"))
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let speaksGerman = index.isMultiple(of: 2)
                    let run = {
                        await Task.yield(); return tr("today")
                    }
                    let said = speaksGerman ? await Localizer.$current.withValue(german) { await run() } : await run()
                    return said == (speaksGerman ? "heute" : "today")
                }
            }
            for await correct in group { #expect(correct) }
        }
    }
}
