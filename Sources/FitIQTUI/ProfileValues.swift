import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text each profile field shows: the draft when there is one, else the cached value.
struct ProfileValues {
    let profile: UserProfile?
    let drafts: [ProfileField: String]

    init(_ state: AppState, includingDrafts: Bool = true) {
        profile = state.account?.state.profile
        drafts = includingDrafts ? state.profile.drafts : [:]
    }

    /// The unit system in force for height entry (a drafted switch counts).
    var unitSystem: UnitSystem {
        drafts[.unitSystem].flatMap(UnitSystem.init(rawValue:)) ?? profile?.preferredUnitSystem ?? .metric
    }

    func text(_ field: ProfileField) -> String {
        if let draft = drafts[field] { return draft }
        guard let profile else { return "" }
        switch field {
        case .name: return TextSanitizer.sanitize(profile.name)
        case .bio: return TextSanitizer.sanitize(profile.bio ?? "")
        case .unitSystem: return profile.preferredUnitSystem.rawValue
        case .language: return TextSanitizer.sanitize(profile.languageCode ?? "")
        case .height: return profile.heightCm.map { Height.format($0, unitSystem: unitSystem) } ?? ""
        case .dateOfBirth: return profile.dateOfBirth?.description ?? ""
        case .biologicalSex: return profile.biologicalSex.map { $0.value.description } ?? ""
        }
    }

    /// What is wrong with `text` for `field`, naming the field and the rule; `nil` when it is fine.
    func problem(_ field: ProfileField, _ text: String) -> String? {
        do {
            switch field {
            case .name: _ = try ProfileRules.name(text)
            case .bio: _ = try ProfileRules.bio(text)
            case .language: _ = try ProfileRules.languageCode(text)
            case .unitSystem: _ = try ProfileRules.unitSystem(text)
            case .height: _ = try Height.parse(text, unitSystem: unitSystem)
            case .dateOfBirth, .biologicalSex: return nil
            }
            return nil
        } catch {
            return error.description
        }
    }
}

/// Languages offered by the picker; any valid code can be typed too.
enum LanguageChoices {
    static let all: [(code: String, name: String)] = [
        ("en", "English"), ("en-GB", "English (UK)"), ("pt-BR", "Português (Brasil)"), ("pt-PT", "Português"),
        ("es", "Español"), ("es-419", "Español (Latinoamérica)"), ("fr", "Français"), ("de", "Deutsch"),
        ("it", "Italiano"), ("nl", "Nederlands"), ("sv", "Svenska"), ("pl", "Polski"), ("tr", "Türkçe"),
        ("ru", "Русский"), ("uk", "Українська"), ("ar", "العربية"), ("hi", "हिन्दी"), ("ja", "日本語"),
        ("ko", "한국어"), ("zh", "中文"), ("zh-TW", "中文（台灣）"),
    ]

    /// Choices whose code or name contains `filter` (case-insensitive); all when empty.
    static func matching(_ filter: String) -> [(code: String, name: String)] {
        let needle = filter.trimmingSpaces().lowercased()
        guard !needle.isEmpty else { return all }
        return all.filter { $0.code.lowercased().contains(needle) || $0.name.lowercased().contains(needle) }
    }
}
