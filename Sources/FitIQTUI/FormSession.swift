import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The profile form without a screen: what plain mode edits with. The drafts, the parsing, the
/// checks and what a save sends are the editor's own (``confirmEdit(_:_:_:)``, ``saveAll(_:)``);
/// nothing is kept twice.
public struct FormSession: Sendable {
    private var state: AppState

    /// A form over `account` (its drafts start empty).
    public init(account: AccountView, now: Date, timeZone: LocalZone) {
        state = AppState(
            screen: .profile, size: AppState.minimumSize, now: now, timeZone: timeZone, server: account.server,
            account: account)
    }

    /// The account changed (a save, a sync): the drafts stay.
    public mutating func update(_ account: AccountView) {
        state.account = account
    }

    /// What ``set(_:_:)`` did.
    public enum SetOutcome: Sendable, Equatable {
        /// Drafted; the value as it will be saved (`5 ft 11 in`, `imperial`).
        case drafted(String)
        /// The value is the saved one: no draft.
        case unchanged(String)
        /// The value breaks a rule, or the field is read-only; nothing was drafted.
        case refused(FieldProblem)
    }

    /// Drafts `text` for `field` as the editor does when a typed value is confirmed.
    public mutating func set(_ field: ProfileField, _ text: String) -> SetOutcome {
        guard field.form != nil else {
            return .refused(FieldProblem(field: field, message: readOnlyReason(field, canImport: true)))
        }
        var typed = text
        if field == .unitSystem, let units = try? ProfileRules.unitSystem(text) { typed = units.rawValue }
        guard confirmEdit(&state, field, typed) else {
            let message = state.profile.errors[field] ?? tr("{field} is not valid.", ["field": field.label])
            state.profile.errors[field] = nil
            return .refused(FieldProblem(field: field, message: message))
        }
        guard state.profile.drafts[field] != nil else {
            return .unchanged(ProfileValues(state).text(field))
        }
        return .drafted(shown(field) ?? TextSanitizer.sanitize(typed))
    }

    /// The fields with drafts and the value each will be saved as, in the form's order.
    public var drafts: [(field: ProfileField, shown: String)] {
        ProfileField.allCases.compactMap { field in
            guard let draft = state.profile.drafts[field] else { return nil }
            return (field, shown(field) ?? TextSanitizer.sanitize(draft))
        }
    }

    /// What Ctrl-S would send for the drafts, or the problems that stop it; the drafts stay until
    /// ``clear()``.
    public mutating func save() -> (effects: [Effect], problems: [FieldProblem]) {
        let effects = saveAll(&state)
        let problems = state.profile.errors.map { FieldProblem(field: $0.key, message: $0.value) }
        state.profile.errors = [:]
        return (effects, problems.sorted { $0.field.rawValue < $1.field.rawValue })
    }

    /// Forgets every draft.
    public mutating func clear() {
        state.profile = ProfileForm()
    }

    /// A measurement draft as it will be saved, in the units in force.
    private func shown(_ field: ProfileField) -> String? {
        guard let metric = field.metric, let value = state.profile.draftValues[field],
            state.profile.drafts[field] != nil
        else { return nil }
        return metric.format(value, unitSystem: ProfileValues(state).unitSystem)
    }
}

/// Why a field's value was refused, naming the field and the rule.
public struct FieldProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: ProfileField
    public let message: String

    public var description: String { message }
}
