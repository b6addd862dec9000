#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One saved change that `undo` can reverse, newest last in ``UndoLog``.
public enum UndoStep: Sendable, Equatable, Codable {
    /// Profile fields changed; `previous` holds what they were.
    case metadata(previous: ProfileMetadata, wording: UndoWording)
    /// A measurement was logged as entry `entryId`; for a height, the current height before it is kept
    /// to go back to (`nil` for other metrics).
    case entryLogged(entryId: UUID, previousHeight: Double?, previousMeasuredAt: Date?, wording: UndoWording)
    /// A history entry was removed.
    case entryRemoved(ProgressEntry, wasLatest: Bool, wording: UndoWording)
    /// A history entry was corrected: `before` replaced by the entry `afterId`.
    case entryCorrected(before: ProgressEntry, afterId: UUID, wasLatest: Bool, wording: UndoWording)

    /// What the change was, kept as data.
    public var wording: UndoWording {
        switch self {
        case .metadata(_, let wording), .entryLogged(_, _, _, let wording), .entryRemoved(_, _, let wording),
            .entryCorrected(_, _, _, let wording):
            wording
        }
    }
}

/// The recent saved changes `undo` can reverse, oldest first.
public struct UndoLog: Sendable, Codable, Equatable {
    /// How many recent changes `undo` can walk back through.
    public static let limit = 30

    public private(set) var steps: [UndoStep]

    public init(_ steps: [UndoStep] = []) {
        self.steps = Array(steps.suffix(Self.limit))
    }

    /// Remembers `step` as the newest change to undo (the oldest beyond ``limit`` are forgotten).
    public mutating func remember(_ step: UndoStep) {
        steps.append(step)
        if steps.count > Self.limit { steps.removeFirst(steps.count - Self.limit) }
    }

    /// Forgets the newest step.
    mutating func removeLast() {
        steps.removeLast()
    }
}

extension AccountState {
    /// Reverses the newest remembered change and forgets it: a change not sent yet leaves the outbox
    /// and the previous values come back; one already sent is reversed by a new change (a logged
    /// measurement's entry is deleted). Returns what was undone, or `nil` when there is nothing to undo.
    ///
    /// - Throws: ``CorrectionError/beingSent`` when the entry to remove went out once without an answer
    ///   (whether the server holds it is known after the next sync), or when the removal of the entry
    ///   to bring back did (whether the server still holds it is known then too); the change stays
    ///   undoable.
    public mutating func undoLast(now: Date) throws(CorrectionError) -> UndoStep? {
        guard let step = undoLog.steps.last else { return nil }
        let (added, removed): (UUID?, UUID?) =
            switch step {
            case .entryLogged(let entryId, _, _, _): (entryId, nil)
            case .entryCorrected(let before, let afterId, _, _): (afterId, before.id)
            case .entryRemoved(let entry, _, _): (nil, entry.id)
            case .metadata: (nil, nil)
            }
        if let added, outbox.progress.contains(where: { $0.id == added && $0.sendAttempted }) { throw .beingSent }
        if let removed, outbox.deletions.contains(where: { $0.id == removed && $0.sendAttempted }) {
            throw .beingSent
        }
        undoLog.removeLast()

        // Puts a removed entry back: its queued deletion is dropped (never sent: checked above), or, when
        // the deletion was delivered, the entry is posted again.
        func restore(_ entry: ProgressEntry, wasLatest: Bool) {
            if outbox.deletions.contains(where: { $0.id == entry.id }) {
                discard(.deletion(entry.id))
            } else if entry.serverId == nil && outbox.progress.contains(where: { $0.id == entry.id }) {
                return
            } else {
                var again = entry
                again.serverId = nil
                history.append(again)
                outbox.post(again)
            }
            if wasLatest && entry.type == Metric.height.type {
                restoreCurrentHeight(entry.quantity, measuredAt: entry.loggedAt)
            }
        }

        // Sets the current height back to `height`; the pending `PATCH` is dropped when that is what the
        // server has already.
        func restoreCurrentHeight(_ height: Double?, measuredAt: Date?) {
            guard let height, let profile else { return }
            var physical = profile.physical
            physical.heightCm = height
            physical.heightMeasuredAt = measuredAt
            self.profile = profile.updatingPhysical(physical)
            if let server = server.copy?.heightCm, abs(server - height) < 0.05,
                outbox.physical?.includesBiologicalSex != true
            {
                outbox.physical = nil
            } else {
                outbox.queuePhysical(height: true, biologicalSex: false, changeId: UUID(), server: server.copy)
            }
        }
        switch step {
        case .metadata(let previous, _):
            editMetadata(previous, now: now)
            // Back at the server's values: nothing is left to send.
            if let server = server.copy?.metadata, profile?.metadata == server { outbox.metadata = nil }
        case .entryLogged(let entryId, let previousHeight, let previousMeasuredAt, _):
            if let entry = history.first(where: { $0.id == entryId }) {
                _ = try? removeEntry(entry)  // not being sent: checked above
            }
            restoreCurrentHeight(previousHeight, measuredAt: previousMeasuredAt)
        case .entryRemoved(let entry, let wasLatest, _):
            restore(entry, wasLatest: wasLatest)
        case .entryCorrected(let before, let afterId, let wasLatest, _):
            if let after = history.first(where: { $0.id == afterId }) {
                _ = try? removeEntry(after)  // not being sent: checked above
            }
            restore(before, wasLatest: wasLatest)
        }
        return step
    }
}
