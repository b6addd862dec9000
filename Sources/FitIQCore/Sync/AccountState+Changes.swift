#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One user-visible change waiting in the outbox, as status and logout name it.
public struct PendingChange: Sendable, Equatable {
    public var item: OutboxItemID
    /// What changed, e.g. `profile: name, bio` or `height 180.5 cm (2026-11-22)`.
    public var summary: String
    /// The server's message when it refused the change.
    public var rejection: String?
    /// The last retryable failure, if any.
    public var lastError: String?
    /// How many user-visible changes the entry carries.
    public var changeCount: Int
}

extension AccountState {
    /// The outbox as a list a person can read, in queue order.
    public func pendingChanges(timeZone: LocalZone = .utc) -> [PendingChange] {
        var changes: [PendingChange] = []
        let units = profile?.preferredUnitSystem ?? .metric
        if let change = outbox.metadata {
            let fields = change.keys.sorted().map { $0.field.label.lowercased() }.joined(separator: ", ")
            changes.append(
                PendingChange(
                    item: .metadata, summary: "profile: \(fields)", rejection: change.delivery.rejection,
                    lastError: change.delivery.lastError, changeCount: 1))
        }
        if let change = outbox.physical {
            var parts: [String] = []
            let patch = pendingPhysicalPatch
            if let height = patch.heightCm { parts.append("height \(Height.format(height, unitSystem: units))") }
            if let sex = patch.biologicalSex { parts.append("biological sex \(sex) (from health source)") }
            // Height changes are counted with their history entries; only what those do not carry counts here.
            let covered = Set(outbox.progress.map(\.changeId) + outbox.deletions.map(\.changeId))
            changes.append(
                PendingChange(
                    item: .physical, summary: "physical: " + parts.joined(separator: ", "),
                    rejection: change.delivery.rejection, lastError: change.delivery.lastError,
                    changeCount: change.changeIds.subtracting(covered).count))
        }
        let corrections = Set(outbox.progress.map(\.changeId))
        for deletion in outbox.deletions {
            let day = CalendarDate(containing: deletion.loggedAt, in: timeZone)
            let shown = Height.format(deletion.quantity, unitSystem: units)
            changes.append(
                PendingChange(
                    item: .deletion(deletion.id), summary: "height history: remove \(shown) on \(day)",
                    rejection: deletion.delivery.rejection, lastError: deletion.delivery.lastError,
                    // A correction (delete and post) is one change, counted with its post.
                    changeCount: corrections.contains(deletion.changeId) ? 0 : 1))
        }
        for post in outbox.progress {
            let day = CalendarDate(containing: post.entry.loggedAt, in: timeZone)
            changes.append(
                PendingChange(
                    item: .progress(post.id),
                    summary: "height history: \(Height.format(post.entry.quantity, unitSystem: units)) on \(day)",
                    rejection: post.delivery.rejection, lastError: post.delivery.lastError, changeCount: 1))
        }
        return changes
    }

    /// User-visible changes not yet acknowledged and not rejected (a height change counts once).
    public var pendingChangeCount: Int {
        pendingChanges().filter { $0.rejection == nil }.reduce(0) { $0 + $1.changeCount }
    }

    /// User-visible changes the server refused.
    public var rejectedChangeCount: Int {
        pendingChanges().filter { $0.rejection != nil }.reduce(0) { $0 + max(1, $1.changeCount) }
    }
}
