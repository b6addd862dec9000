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
    let edits: ProfileEdits
    let timeZone: LocalZone

    init(_ state: AppState, includingDrafts: Bool = true) {
        account = state.account
        profile = account?.profile
        edits = includingDrafts ? state.profile.edits : ProfileEdits()
        timeZone = state.timeZone
    }

    /// The unit system in force for height entry (a drafted switch counts).
    var unitSystem: UnitSystem { edits.unitSystem(over: account) }

    func text(_ field: ProfileField) -> String {
        if let editable = field.editable { return edits.text(editable, over: account) }
        guard let profile else { return "" }
        switch field {
        case .bmi: return bodyMassIndex.map { DecimalText.shown($0.value, places: 1) } ?? ""
        case .dateOfBirth: return profile.dateOfBirth?.description ?? ""
        case .biologicalSex: return profile.biologicalSex.map { $0.value.shown } ?? ""
        default: return ""
        }
    }

    /// The BMI of the latest weight (see ``AccountView/bodyMassIndex``).
    var bodyMassIndex: BodyMassIndex? {
        account?.bodyMassIndex
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
