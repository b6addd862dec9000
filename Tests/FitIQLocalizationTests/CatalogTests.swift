import FitIQLocalization
import Testing

/// Reading `.po` text: contexts, plurals, escapes, continued lines, flags, and catalogs that are wrong.
struct CatalogTests {
    static let french = #"""
        # Français, tutoiement.
        msgid ""
        msgstr ""
        "Language: fr\n"
        "Plural-Forms: nplurals=2; plural=(n > 1);\n"

        #: Sources/FitIQTUI/Render.swift
        #, python-brace-format
        msgid "Saved {field}."
        msgstr "{field} enregistré."

        msgctxt "box title"
        msgid "Profile"
        msgstr "Profil"

        msgid ""
        "a long "
        "message"
        msgstr ""
        "un long "
        "message"

        msgid "{count} change pending"
        msgid_plural "{count} changes pending"
        msgstr[0] "{count} modification en attente"
        msgstr[1] "{count} modifications en attente"

        msgid "tab\tquote\" back\\slash"
        msgstr "tab\tguillemet\" barre\\oblique \303\251\x21"

        #, fuzzy
        msgid "Sync now"
        msgstr "Synchroniser"

        msgid "Untranslated"
        msgstr ""

        #~ msgid "Gone"
        #~ msgstr "Parti"
        """#

    @Test func readsEveryKindOfEntry() {
        let catalog = Catalog(po: Self.french)
        #expect(catalog.header["Language"] == "fr")
        #expect(catalog.text(.init("Saved {field}.")) == "{field} enregistré.")
        #expect(catalog.text(.init(context: "box title", "Profile")) == "Profil")
        #expect(catalog.text(.init("Profile")) == nil)
        #expect(catalog.text(.init("a long message")) == "un long message")
        #expect(catalog.text(.init("tab\tquote\" back\\slash")) == "tab\tguillemet\" barre\\oblique é!")
        #expect(catalog.text(.init("{count} change pending"), count: 0) == "{count} modification en attente")
        #expect(catalog.text(.init("{count} change pending"), count: 2) == "{count} modifications en attente")
    }

    @Test func leavesOutFuzzyUntranslatedAndObsoleteEntries() {
        let catalog = Catalog(po: Self.french)
        #expect(catalog.text(.init("Sync now")) == nil)
        #expect(catalog.text(.init("Untranslated")) == nil)
        #expect(catalog.text(.init("Gone")) == nil)
        #expect(catalog.entries.count == 5)
    }

    @Test func dropsPluralEntriesWhenTheHeaderRuleIsUnreadableOrFormsAreMissing() {
        let broken = Self.french.replacing("plural=(n > 1);", with: "plural=(n > ;")
        let catalog = Catalog(po: broken)
        #expect(catalog.text(.init("{count} change pending"), count: 2) == nil)
        #expect(catalog.text(.init("Saved {field}.")) == "{field} enregistré.")
        let short = Self.french.replacing("msgstr[1] \"{count} modifications en attente\"", with: "")
        #expect(Catalog(po: short).text(.init("{count} change pending"), count: 1) == nil)
    }

    @Test(arguments: [
        "", "msgid", "msgstr \"orphan\"", "msgid \"a\nmsgstr \"b\"", "\"\"\"",
        "msgid \"x\"\nmsgstr[99999999999999999999] \"y\"",
        "msgid \"x\"\nmsgstr \"\\", "msgid \"x\"\nmsgstr \"\\777\\xZZ\\q\"",
        "\u{0}\u{FFFF}msgid \"é\"\r\nmsgstr \"e\"\r\n",
        String(repeating: "msgid \"a\"\n", count: 20),
    ])
    func neverCrashesOnBadText(text: String) {
        let catalog = Catalog(po: text)
        #expect(catalog.entries.count <= 1)
    }

    @Test func anEntryWithCarriageReturnsReadsLikeOneWithout() {
        let catalog = Catalog(po: "msgid \"é\"\r\nmsgstr \"e\"\r\n")
        #expect(catalog.text(.init("é")) == "e")
    }
}
