/// Speaks one language: looks messages up in its catalog, fills in their `{placeholders}`, writes
/// numbers with its decimal separator and says how many days ago something was.
///
/// **How the language is carried.** The language in force is the task-local ``current`` (English unless
/// set), not a process-wide variable: swift-testing runs tests in parallel in one process, and a test
/// that switches to French must not turn another test's English into French. Whoever decides the
/// language wraps its work in `Localizer.$current.withValue(…)`: the program's entry once the settings
/// are read (a command, plain mode's reading of a line), and the editor around each update and each
/// frame, with the language its state names (the profile's, unless `FITIQ_LANG`), so a language saved
/// in the editor speaks from the next frame on. Tasks inherit task-locals, so an effect started under
/// `withValue` says its sentences in the same language; a long-lived background task hands data back,
/// and the sentence is made where the event is handled.
///
/// The messages are written in the code in English (``tr(_:_:)``, ``trn(_:_:count:_:)``,
/// ``trc(_:_:_:)``, ``Phrase``), which is what English shows and the key of every catalog entry.
public struct Localizer: Sendable {
    /// The language spoken.
    public let language: Language
    private let catalog: Catalog?

    public init(language: Language, catalog: Catalog?) {
        self.language = language
        self.catalog = catalog
    }

    /// The messages as written.
    public static let english = Localizer(language: .english, catalog: nil)
    /// `qps`: every message bracketed and lengthened by 40 %, so a test sees what is not translated and
    /// what does not fit.
    public static let pseudo = Localizer(language: .pseudo, catalog: nil)

    /// The language in force in this task (English unless a caller set one with `withValue`).
    @TaskLocal public static var current: Localizer = .english

    /// The translation of `id`, or `id` itself when the catalog has none.
    public func text(_ id: String, context: String? = nil) -> String {
        if language == .pseudo { return Self.pseudo(id) }
        return catalog?.text(Catalog.Key(context: context, id)) ?? id
    }

    /// The form of a message with a plural for `count`: the catalog's, or English's (`singular` for 1).
    public func text(_ singular: String, plural: String, count: Int, context: String? = nil) -> String {
        let english = count == 1 ? singular : plural
        if language == .pseudo { return Self.pseudo(english) }
        return catalog?.text(Catalog.Key(context: context, singular), count: count) ?? english
    }

    /// What separates a number's whole part from its decimals: `,` in German, Spanish, French and
    /// Portuguese (and `qps`, so a number written past the language shows), `.` in English.
    public var decimalSeparator: String {
        switch language.base {
        case "de", "es", "fr", "pt", "qps": ","
        default: "."
        }
    }

    /// What groups a long number's digits by three: `.` in German, Spanish and Portuguese, a narrow
    /// no-break space in French, `,` in English (and `qps`).
    public var groupSeparator: String {
        switch language.base {
        case "de", "es", "pt": "."
        case "fr": "\u{202F}"
        default: ","
        }
    }

    /// A number written with a dot (`72.4`) as this language writes it (`72,4`).
    public func decimal(_ machineText: String) -> String {
        decimalSeparator == "." ? machineText : machineText.replacing(".", with: decimalSeparator)
    }

    /// How long ago a day was, from the number of days since: `today`, `yesterday`, `3 days ago`
    /// (`in 2 days` for a day to come).
    public func daysAgo(_ days: Int) -> String {
        Localizer.$current.withValue(self) {
            switch days {
            case 0: tr("today")
            case 1: tr("yesterday")
            case ..<0: trn("in {count} day", "in {count} days", count: -days)
            default: trn("{count} day ago", "{count} days ago", count: days)
            }
        }
    }

    /// `text` bracketed and lengthened by 40 % (at least one character), placeholders untouched.
    static func pseudo(_ text: String) -> String {
        let added = max(1, (text.count * 2 + 4) / 5)
        return "[" + text + " " + String(repeating: "~", count: max(0, added - 1)) + "]"
    }
}

/// The catalogs a program has, by code (`de`, `pt_BR`), each read at its first use.
public struct Catalogs: Sendable {
    /// The codes of the languages with a catalog.
    public let codes: Set<String>
    private let load: @Sendable (String) -> Catalog?

    public init(codes: Set<String>, load: @escaping @Sendable (String) -> Catalog?) {
        self.codes = codes
        self.load = load
    }

    /// No catalog: English (and `qps`) only.
    public static let none = Catalogs(codes: []) { _ in nil }

    /// The localizer of `language`: English when it has no catalog.
    public func localizer(_ language: Language) -> Localizer {
        if language == .pseudo { return .pseudo }
        guard language != .english, codes.contains(language.code), let catalog = load(language.code) else {
            return .english
        }
        return Localizer(language: language, catalog: catalog)
    }

    /// The localizer the settings choose for a profile set to `profileLanguage` (`nil`: no profile).
    public func localizer(_ settings: LanguageSettings, profile profileLanguage: String?) -> Localizer {
        localizer(settings.language(profile: profileLanguage, available: codes))
    }
}
