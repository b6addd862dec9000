#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A field of the profile a person types into.
public enum EditableField: String, CaseIterable, Sendable, Hashable {
    case name, bio, unitSystem, language, height, weight, bodyFat

    /// The measurement the field holds; `nil` for a profile field.
    public var metric: Metric? {
        switch self {
        case .height: .height
        case .weight: .weight
        case .bodyFat: .bodyFat
        case .name, .bio, .unitSystem, .language: nil
        }
    }

    /// The profile's own fields, saved together as one change.
    public static let metadata: [EditableField] = [.name, .bio, .unitSystem, .language]
}

/// The profile form without a screen, for every front end: what was typed into each field (the
/// drafts), each measurement parsed once when it was typed (in the units then in force), the profile's
/// rules, and the change requests a save makes (``changes(over:)``), which ``Account/apply(_:sending:)``
/// carries out. The editor keeps one under its screen; plain mode and the command line keep one too.
public struct ProfileEdits: Sendable, Equatable {
    /// The drafts, as typed.
    public private(set) var drafts: [EditableField: String] = [:]
    /// The measurement drafts in their metric's unit (cm, kg, %).
    public private(set) var values: [EditableField: Double] = [:]

    public init() {}

    /// The unit system in force over `view`: a drafted switch counts.
    public func unitSystem(over view: AccountView?) -> UnitSystem {
        drafts[.unitSystem].flatMap(UnitSystem.init(rawValue:)) ?? view?.profile?.preferredUnitSystem ?? .metric
    }

    /// The text `field` shows: its draft, else the value saved in `view`, in the units in force.
    public func text(_ field: EditableField, over view: AccountView?) -> String {
        drafts[field] ?? Self.saved(field, in: view, unitSystem: unitSystem(over: view))
    }

    /// The text `field` shows without drafts: the value saved in `view` (sanitized for the screen).
    public static func saved(_ field: EditableField, in view: AccountView?, unitSystem: UnitSystem) -> String {
        guard let profile = view?.profile else { return "" }
        switch field {
        case .name: return TextSanitizer.sanitize(profile.name)
        case .bio: return TextSanitizer.sanitize(profile.bio ?? "")
        case .unitSystem: return profile.preferredUnitSystem.rawValue
        case .language: return TextSanitizer.sanitize(profile.languageCode ?? "")
        case .height: return profile.heightCm.map { Height.format($0, unitSystem: unitSystem) } ?? ""
        case .weight, .bodyFat:
            guard let metric = field.metric, let entry = view?.latestEntry(of: metric) else { return "" }
            return metric.format(entry.quantity, unitSystem: unitSystem)
        }
    }

    /// Drafts `text` for `field`, as typing it and confirming does: a measurement is parsed in the units
    /// in force (the one place a typed measurement is parsed), other text is checked by its rule. Text
    /// that shows the saved value again drops the draft.
    ///
    /// - Returns: whether a draft is kept (`false`: the field shows its saved value).
    /// - Throws: the rule `text` breaks; nothing is drafted then.
    @discardableResult
    public mutating func set(_ field: EditableField, _ text: String, over view: AccountView?) throws(ValidationError)
        -> Bool
    {
        let units = unitSystem(over: view)
        var text = text
        if let metric = field.metric {
            values[field] = try metric.parse(text, unitSystem: units)
        } else if field == .unitSystem {
            // Typed as the user likes (`Imperial`), kept as the system's name.
            text = try ProfileRules.unitSystem(text).rawValue
        } else {
            try Self.check(field, text)
        }
        guard text != Self.saved(field, in: view, unitSystem: units) else {
            forget([field])
            return false
        }
        drafts[field] = text
        return true
    }

    /// Drafts `text`, picked from a list or typed into its filter, for the profile field `field` as it is:
    /// a rule it breaks is said when it is saved (``changes(over:)``), as the list closes without one.
    /// Text that shows the saved value again drops the draft. A measurement is always parsed (``set(_:_:over:)``).
    public mutating func choose(_ field: EditableField, _ text: String, over view: AccountView?) {
        guard field.metric == nil else { return }
        if text == Self.saved(field, in: view, unitSystem: unitSystem(over: view)) {
            forget([field])
        } else {
            drafts[field] = text
        }
    }

    /// A measurement draft as it will be saved, in the units in force (`5 ft 11 in`, `72.4 kg`); other
    /// drafts as typed.
    public func shown(_ field: EditableField, over view: AccountView?) -> String? {
        guard let draft = drafts[field] else { return nil }
        guard let metric = field.metric, let value = values[field] else { return TextSanitizer.sanitize(draft) }
        return metric.format(value, unitSystem: unitSystem(over: view))
    }

    /// Drops the drafts of `fields` (a save took them, or the user let them go).
    public mutating func forget(_ fields: some Sequence<EditableField>) {
        for field in fields {
            drafts[field] = nil
            values[field] = nil
        }
    }

    /// What a save makes of the drafts over `view`: one metadata request when a profile field is drafted
    /// and every profile field holds a valid value, and one request per drafted measurement; and what
    /// is wrong with the profile fields that stop their request (checked again: the saved values they
    /// go out with may have changed since they were typed).
    public func changes(over view: AccountView?) -> (
        requests: [ChangeRequest], problems: [EditableField: ValidationError]
    ) {
        var requests: [ChangeRequest] = []
        var problems: [EditableField: ValidationError] = [:]
        for field in drafts.keys where field.metric == nil {
            do { try Self.check(field, text(field, over: view)) } catch { problems[field] = error }
        }
        let metadataDrafted = drafts.keys.contains { $0.metric == nil }
        if metadataDrafted, problems.isEmpty, let units = UnitSystem(rawValue: text(.unitSystem, over: view)) {
            requests.append(
                .metadata(
                    name: text(.name, over: view), bio: text(.bio, over: view), unitSystem: units,
                    languageCode: text(.language, over: view)))
        }
        for field in EditableField.allCases {
            if let metric = field.metric, drafts[field] != nil, let value = values[field] {
                requests.append(.measurement(metric, value))
            }
        }
        return (requests, problems)
    }

    /// Checks `text` for the profile field `field` by its rule.
    private static func check(_ field: EditableField, _ text: String) throws(ValidationError) {
        switch field {
        case .name: _ = try ProfileRules.name(text)
        case .bio: _ = try ProfileRules.bio(text)
        case .language: _ = try ProfileRules.languageCode(text)
        case .unitSystem: _ = try ProfileRules.unitSystem(text)
        case .height, .weight, .bodyFat: break
        }
    }
}
