import FitIQLocalization
import Synchronization

/// What the editor needs to choose its language: the settings of its environment and the catalogs it has.
/// The language itself follows from the state (``AppState/localizer``): `FITIQ_LANG`, else the saved
/// profile's language, else the environment's; before sign-in there is no profile, so the environment
/// decides.
public struct EditorLanguage: Sendable {
    public let settings: LanguageSettings
    public let catalogs: Catalogs
    /// The localizer last chosen, and the profile language it was chosen for: every key is updated and
    /// drawn in the state's language, which changes only with the profile's. Shared by the copies of
    /// this value, which all have the same settings and catalogs.
    private let chosen = Chosen()

    private final class Chosen: Sendable {
        let last = Mutex<(profileLanguage: String?, localizer: Localizer)?>(nil)
    }

    public init(settings: LanguageSettings = LanguageSettings(), catalogs: Catalogs = .none) {
        self.settings = settings
        self.catalogs = catalogs
    }

    /// The localizer for a profile set to `profileLanguage` (`nil`: no profile).
    func localizer(profile profileLanguage: String?) -> Localizer {
        chosen.last.withLock { chosen in
            if let chosen, chosen.profileLanguage == profileLanguage { return chosen.localizer }
            let localizer = catalogs.localizer(settings, profile: profileLanguage)
            chosen = (profileLanguage, localizer)
            return localizer
        }
    }
}

extension AppState {
    /// The language this state speaks. ``update(_:_:)`` and ``render(_:into:)`` put it in force
    /// (``Localizer/current``) for their work, so a language saved in the editor speaks from the next
    /// frame on; the editor loop does the same for the effects it starts.
    public var localizer: Localizer {
        language.localizer(profile: account?.profile?.languageCode)
    }
}
