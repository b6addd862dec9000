import FitIQLocalization
import Testing

/// Which language speaks: the settings' order, regions, `C`, locale names, catalogs that exist.
struct LanguageTests {
    static let available: Set<String> = ["de", "es", "fr", "pt_BR"]

    @Test(arguments: [
        ("de", ["de"]), ("pt-BR", ["pt_BR", "pt"]), ("pt_br", ["pt_BR", "pt"]), ("es-419", ["es_419", "es"]),
        ("de_DE.UTF-8@euro", ["de_DE", "de"]), ("fr_FR.utf8", ["fr_FR", "fr"]), ("EN", ["en"]),
        ("zh-Hant-TW", ["zh_TW", "zh"]), ("C", []), ("POSIX", []), ("C.UTF-8", []), ("", []), ("1234", []),
        ("e", []), ("deutsch", []), ("qps", ["qps"]),
    ])
    func readsTheLanguagesASettingNames(setting: String, codes: [String]) {
        #expect(Language.candidates(setting).map(\.code) == codes)
    }

    static func settings(
        _ override: String? = nil, language: String? = nil, all: String? = nil, messages: String? = nil,
        lang: String? = nil
    ) -> LanguageSettings {
        LanguageSettings(override: override, environment: [language, all, messages, lang])
    }

    @Test func theOverrideComesFirstThenTheProfileThenTheEnvironmentInGettextsOrder() {
        let all = Self.settings("fr", language: "es", all: "de_DE.UTF-8", messages: "pt_BR", lang: "es_ES")
        #expect(all.language(profile: "de", available: Self.available).code == "fr")
        var noOverride = all
        noOverride.override = nil
        #expect(noOverride.language(profile: "pt-BR", available: Self.available).code == "pt_BR")
        #expect(noOverride.language(profile: nil, available: Self.available).code == "es")
        #expect(
            Self.settings(all: "de_DE.UTF-8", messages: "fr").language(profile: nil, available: Self.available).code
                == "de")
        #expect(
            Self.settings(messages: "fr_FR", lang: "de").language(profile: nil, available: Self.available).code == "fr")
        #expect(Self.settings(lang: "es_MX.UTF-8").language(profile: nil, available: Self.available).code == "es")
        #expect(Self.settings().language(profile: nil, available: Self.available) == .english)
    }

    @Test func cAndPosixAndEmptyNameNoLanguageSoTheNextSettingDecides() {
        let settings = Self.settings("", language: "", all: "C", messages: "POSIX", lang: "de_DE.UTF-8")
        #expect(settings.language(profile: "", available: Self.available).code == "de")
        #expect(Self.settings(all: "C").language(profile: nil, available: Self.available) == .english)
    }

    @Test func aRegionFallsBackToItsLanguageAndALanguageWithoutACatalogToEnglish() {
        let none = Self.settings(lang: "de_DE.UTF-8")
        #expect(none.language(profile: "es-419", available: Self.available).code == "es")
        #expect(none.language(profile: "pt-PT", available: Self.available) == .english)
        #expect(none.language(profile: "ja", available: Self.available) == .english)
        #expect(none.language(profile: "en-GB", available: Self.available) == .english)
        #expect(Self.settings("qps").language(profile: "de", available: Self.available) == .pseudo)
    }

    @Test func languageIsAListTriedInOrder() {
        let settings = Self.settings(language: "ja:fr:de", lang: "de_DE")
        #expect(settings.language(profile: nil, available: Self.available).code == "fr")
        #expect(
            Self.settings(language: "ja:sv", lang: "de").language(profile: nil, available: Self.available) == .english)
    }

    @Test func readsAProcessEnvironment() {
        let settings = LanguageSettings(environment: ["FITIQ_LANG": "qps", "LANG": "de_DE.UTF-8", "HOME": "/root"])
        #expect(settings == Self.settings("qps", lang: "de_DE.UTF-8"))
    }
}
