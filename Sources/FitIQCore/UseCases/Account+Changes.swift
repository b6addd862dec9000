#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A change to the account as a value: what the editor's form, plain mode's form and the commands ask
/// for. ``Account/apply(_:sending:)`` carries every one out; no front end decides what a change does.
public enum ChangeRequest: Sendable, Equatable {
    /// The profile's fields; `nil` leaves a field as it is.
    case metadata(name: String? = nil, bio: String? = nil, unitSystem: UnitSystem? = nil, languageCode: String? = nil)
    /// A measurement in the metric's unit (centimetres, kilograms, percent). Without a day, a height
    /// becomes the current height and a weight or body fat is a reading of now; with a day, it is a
    /// reading of that day (at noon, local time), and a height of a day after the newest one becomes the
    /// current height.
    case measurement(Metric, Double, day: CalendarDate? = nil, notes: String? = nil)
}

/// What ``Account/apply(_:sending:)`` did.
public enum ChangeOutcome: Sendable, Equatable {
    /// The profile's fields were saved.
    case metadataSaved
    /// Every field already held the value given: nothing was saved.
    case metadataUnchanged
    /// The current height is now this many centimetres.
    case heightSet(Double)
    /// The height given shows as the current one does: nothing was saved.
    case heightUnchanged(Double?)
    /// A reading was logged; `isCurrentHeight` when it is a height that became the current one.
    case logged(ProgressEntry, isCurrentHeight: Bool)

    /// Whether anything was saved.
    public var saved: Bool {
        switch self {
        case .metadataUnchanged, .heightUnchanged: false
        case .metadataSaved, .heightSet, .logged: true
        }
    }
}

/// A change carried out: what it did, and the account as it then stands.
public struct AppliedChange: Sendable {
    public var outcome: ChangeOutcome
    public var view: AccountView
}

extension Account {
    /// Carries out `request`: checked by the profile's rules, saved on this machine first, and, with
    /// `sending`, claimed in the same write for the engine to send at once (``push(until:)``). The one
    /// place that decides what a change does (a height becomes the current height, a weight is a
    /// reading) for the editor, plain mode and the commands.
    ///
    /// - Throws: ``ValidationError`` for a value a rule refuses (nothing is saved), and
    ///   ``AccountError/profileNotLoaded`` before the profile was first read.
    @discardableResult
    public func apply(_ request: ChangeRequest, sending: Bool = false) async throws -> AppliedChange {
        let outcome: ChangeOutcome
        switch request {
        case .metadata(let name, let bio, let unitSystem, let languageCode):
            let changed = try await updateMetadata(
                name: name, bio: bio, unitSystem: unitSystem, languageCode: languageCode, sending: sending)
            outcome = changed ? .metadataSaved : .metadataUnchanged
        case .measurement(.height, let centimetres, nil, nil):
            let changed = try await updateHeight(centimetres: centimetres, sending: sending)
            let current = try await store.overview().state.profile?.heightCm
            outcome = changed ? .heightSet(current ?? centimetres) : .heightUnchanged(current)
        case .measurement(let metric, let value, let day, let notes):
            let logged = try await log(metric, value, on: day, notes: notes, sending: sending)
            outcome = .logged(logged.entry, isCurrentHeight: logged.isCurrentHeight)
        }
        return AppliedChange(outcome: outcome, view: try await view())
    }
}
