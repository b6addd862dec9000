/// A language the interface can speak: English, one with a catalog, or the pseudo-language `qps`.
///
/// Its ``code`` names the catalog as gettext does: `de`, `es`, `fr`, `pt_BR`, plus `en` (the messages
/// as written) and `qps` (``Localizer/pseudo``).
public struct Language: Sendable, Hashable, CustomStringConvertible {
    /// `de`, `pt_BR`, `en`, `qps`.
    public let code: String

    public init(code: String) { self.code = code }

    public static let english = Language(code: "en")
    /// The pseudo-language for tests: every message bracketed and 40 % longer.
    public static let pseudo = Language(code: "qps")

    /// The language part alone: `pt` for `pt_BR`.
    public var base: String { String(code.prefix { $0 != "_" }) }

    public var description: String { code }

    /// The languages a setting names, most specific first: `pt-BR`, `pt_BR.UTF-8` → `pt_BR`, `pt`;
    /// `de_DE.UTF-8@euro` → `de_DE`, `de`; `es-419` → `es_419`, `es`. Empty for an empty setting and for
    /// `C` and `POSIX` (which name no language), and for text that is no language tag.
    public static func candidates(_ setting: String) -> [Language] {
        var text = Substring(setting)
        // `de_DE.UTF-8@euro`: the codeset and the modifier say nothing about the language.
        if let at = text.firstIndex(of: "@") { text = text[..<at] }
        if let dot = text.firstIndex(of: ".") { text = text[..<dot] }
        guard text != "C", text != "POSIX" else { return [] }
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "_" || $0 == "-" }
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(\.isASCIILetterOrDigit),
            first.allSatisfy({ !$0.isNumber })
        else { return [] }
        let language = first.lowercased()
        // A script (`zh-Hant-TW`) between language and region is skipped.
        let region = parts.dropFirst().first {
            $0.count == 2 && $0.allSatisfy(\.isLetter) || $0.count == 3 && $0.allSatisfy(\.isNumber)
        }
        guard let region else { return [Language(code: language)] }
        return [Language(code: language + "_" + region.uppercased()), Language(code: language)]
    }
}

extension Character {
    fileprivate var isASCIILetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}

/// Which language to speak, from the settings in their order of precedence: `FITIQ_LANG`, then the
/// signed-in profile's language, then `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`.
///
/// The first setting that names a language decides (`C` and `POSIX` name none, so the next one
/// decides). `LANGUAGE` is a list (`fr:de`), tried in order as gettext does. A region falls back to its
/// language (`pt-PT` → `pt`), and a language without a catalog is English: a profile set to Japanese
/// shows English, not the language of the machine's `LANG`.
public struct LanguageSettings: Sendable, Equatable {
    /// `FITIQ_LANG`.
    public var override: String?
    /// `LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, in that order.
    public var environment: [String?]

    public init(override: String? = nil, environment: [String?] = []) {
        self.override = override
        self.environment = environment
    }

    /// The settings of a process environment (a dictionary of its variables).
    public init(environment variables: [String: String]) {
        self.init(
            override: variables["FITIQ_LANG"],
            environment: ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"].map { variables[$0] })
    }

    /// The language to speak for a profile set to `profileLanguage` (`nil` before sign-in), among
    /// `available` (the codes with a catalog).
    public func language(profile profileLanguage: String?, available: Set<String>) -> Language {
        let settings = [override, profileLanguage] + environment
        for setting in settings {
            guard let setting, !setting.isEmpty else { continue }
            // Only LANGUAGE is a list; a colon elsewhere does no harm.
            let entries = setting.split(separator: ":").map(String.init)
            let named = entries.map(Language.candidates).filter { !$0.isEmpty }
            guard !named.isEmpty else { continue }
            for candidates in named {
                for language in candidates {
                    if language == .english || language == .pseudo || available.contains(language.code) {
                        return language
                    }
                }
                if candidates.contains(where: { $0.base == "en" }) { return .english }
            }
            return .english
        }
        return .english
    }
}
