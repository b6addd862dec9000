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
    case measurement(Metric, Double, day: CalendarDate? = nil, time: TimeOfDay? = nil, notes: String? = nil)
    /// A new value for the entry of the metric named `id` (its server id, or its local one while pending),
    /// keeping when it was logged.
    case correct(Metric, id: String, to: Double)
    /// Removes the entry of the metric named `id`.
    case delete(Metric, id: String)
    /// A goal for the metric, in its unit, with an optional day to reach it by (kept on this machine).
    case setGoal(Metric, target: Double, by: CalendarDate?)
    /// Clears the metric's goal.
    case clearGoal(Metric)
    /// Undoes the last change saved (walking back through the recent ones).
    case undo
    /// Settles the conflict on `field` (`name`, `bio`, `units`, `language` or `height`): `keepLocal`
    /// sends this machine's value over the server's; otherwise this machine takes the server's value.
    case resolveConflict(field: String, keepLocal: Bool)
    /// The readings of other apps' files, each a history entry unless one is held already; with
    /// `preview`, only what importing them would do (nothing is written). A bad row stops it unless
    /// `skipInvalid`.
    case importFiles([ImportedFile], skipInvalid: Bool = false, preview: Bool = false)
    /// What the health source held (read by its adapter: an Apple Health export): biological sex, the
    /// measurements' histories, the current height and the health date of birth (shown, never sent).
    /// `fileName` names it in the account's record of the last import. With `preview`, only what
    /// importing it would do (nothing is written).
    case importHealth(HealthSnapshot, fileName: String? = nil, preview: Bool = false)
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
    /// An entry was corrected: it before and after.
    case corrected(before: ProgressEntry, after: ProgressEntry)
    /// An entry was removed.
    case deleted(ProgressEntry)
    /// A goal was set.
    case goalSet(Goal)
    /// A goal was cleared; `existed` is false when there was none.
    case goalCleared(existed: Bool)
    /// The last change was undone; `nil` when there was nothing left to undo.
    case undone(UndoStep?)
    /// A conflict was settled; `existed` is false when the field was not conflicted.
    case conflictResolved(existed: Bool)
    /// Files were imported (or, `preview`, read to say what importing them would do).
    case imported(ReadingsImportResult, preview: Bool)
    /// The health source's data was imported.
    case healthImported(HealthImportResult)

    /// Whether anything was saved.
    public var saved: Bool {
        switch self {
        case .metadataUnchanged, .heightUnchanged, .goalCleared(existed: false), .undone(nil),
            .conflictResolved(existed: false):
            false
        case .imported(let result, let preview): !preview && result.queuedAnything
        default: true
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
    /// `sending`, claimed in the same write for the engine to send at once (``deliver()``). The one
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
        case .measurement(.height, let centimetres, nil, nil, nil):
            let changed = try await updateHeight(centimetres: centimetres, sending: sending)
            let current = try await store.overview().state.profile?.heightCm
            outcome = changed ? .heightSet(current ?? centimetres) : .heightUnchanged(current)
        case .measurement(let metric, let value, let day, let time, let notes):
            let logged = try await log(metric, value, on: day, at: time, notes: notes, sending: sending)
            outcome = .logged(logged.entry, isCurrentHeight: logged.isCurrentHeight)
        case .correct(let metric, let id, let value):
            let (before, after) = try await correctEntry(of: metric, id: id, to: value)
            outcome = .corrected(before: before, after: after)
        case .delete(let metric, let id):
            outcome = .deleted(try await deleteEntry(of: metric, id: id))
        case .setGoal(let metric, let target, let by):
            outcome = .goalSet(try await setGoal(metric, target: target, by: by))
        case .clearGoal(let metric):
            outcome = .goalCleared(existed: try await clearGoal(metric))
        case .undo:
            outcome = .undone(try await undo())
        case .resolveConflict(let field, let keepLocal):
            outcome = .conflictResolved(
                existed: try await resolveConflict(field, keepLocal: keepLocal, sending: sending))
        case .importFiles(let files, let skipInvalid, let preview):
            let result = try await importFiles(
                files, skipInvalid: skipInvalid, preview: preview, readingServer: !preview && sending)
            outcome = .imported(result, preview: preview)
        case .importHealth(let snapshot, let fileName, let preview):
            outcome = .healthImported(try await importHealth(snapshot, fileName: fileName, preview: preview))
        }
        return AppliedChange(outcome: outcome, view: try await view())
    }
}
