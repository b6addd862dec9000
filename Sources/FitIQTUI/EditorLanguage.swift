import FitIQLocalization

/// What the editor needs to choose its language: the settings of its environment and the catalogs it has.
/// The language itself follows from the state (``AppState/localizer``): `FITIQ_LANG`, else the saved
/// profile's language, else the environment's; before sign-in there is no profile, so the environment
/// decides.
public struct EditorLanguage: Sendable {
    public var settings: LanguageSettings
    public var catalogs: Catalogs

    public init(settings: LanguageSettings = LanguageSettings(), catalogs: Catalogs = .none) {
        self.settings = settings
        self.catalogs = catalogs
    }
}

extension AppState {
    /// The language this state speaks. ``update(_:_:)`` and ``render(_:into:)`` put it in force
    /// (``Localizer/current``) for their work, so a language saved in the editor speaks from the next
    /// frame on; the editor loop does the same for the effects it starts.
    public var localizer: Localizer {
        language.catalogs.localizer(language.settings, profile: account?.profile?.languageCode)
    }
}
