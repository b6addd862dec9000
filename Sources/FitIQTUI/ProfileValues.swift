import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The text each profile field shows: the draft when there is one, else the cached value.
struct ProfileValues {
    let account: AccountView?
    let profile: UserProfile?
    let drafts: [ProfileField: String]
    let timeZone: LocalZone

    init(_ state: AppState, includingDrafts: Bool = true) {
        account = state.account
        profile = account?.profile
        drafts = includingDrafts ? state.profile.drafts : [:]
        timeZone = state.timeZone
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
        case .weight, .bodyFat:
            guard let metric = field.metric, let entry = account?.latestEntry(of: metric) else { return "" }
            return metric.format(entry.quantity, unitSystem: unitSystem)
        case .bmi: return bodyMassIndex.map { DecimalText.shown($0.value, places: 1) } ?? ""
        case .dateOfBirth: return profile.dateOfBirth?.description ?? ""
        case .biologicalSex: return profile.biologicalSex.map { $0.value.shown } ?? ""
        }
    }

    /// The BMI of the latest weight (see ``AccountView/bodyMassIndex``).
    var bodyMassIndex: BodyMassIndex? {
        account?.bodyMassIndex
    }

    /// What is wrong with `text` for `field`, naming the field and the rule; `nil` when it is fine.
    func problem(_ field: ProfileField, _ text: String) -> String? {
        do {
            switch field {
            case .name: _ = try ProfileRules.name(text)
            case .bio: _ = try ProfileRules.bio(text)
            case .language: _ = try ProfileRules.languageCode(text)
            case .unitSystem: _ = try ProfileRules.unitSystem(text)
            case .height, .weight, .bodyFat: _ = try field.metric?.parse(text, unitSystem: unitSystem)
            case .dateOfBirth, .biologicalSex, .bmi: return nil
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
