#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Corrections of a measurement history: removing an entry, or replacing its value at the same instant.
extension AccountState {
    /// Removes `entry` (see ``entry(of:named:)``): one never sent just leaves the outbox; one the
    /// server has is deleted there too (queued). When it was the latest height, the current height
    /// follows the height that is latest now.
    ///
    /// - Returns: whether the current height changed.
    @discardableResult
    public mutating func removeEntry(_ entry: ProgressEntry, changeId: UUID = UUID()) throws(CorrectionError)
        -> Bool
    {
        let wasLatest = entry.type == Metric.height.type && history.isLatest(entry)
        if let post = outbox.progress.first(where: { $0.id == entry.id }) {
            // Sent once without an answer: the server may hold it, under an id not known here yet.
            guard !post.sendAttempted else { throw .beingSent }
            outbox.progress.removeAll { $0.id == entry.id }
        } else if let serverId = entry.serverId {
            server.rememberRemoved(serverId)
            outbox.deletions.append(
                ProgressDeletion(removing: entry, serverId: serverId, changeId: changeId))
        }
        history.removeAll { $0.id == entry.id }
        guard wasLatest, let latest = history.latest(of: .height), let profile else { return false }
        var physical = profile.physical
        physical.heightCm = latest.quantity
        physical.heightMeasuredAt = latest.loggedAt
        self.profile = profile.updatingPhysical(physical)
        outbox.queuePhysical(height: true, biologicalSex: false, changeId: changeId, server: server.copy)
        return true
    }

    /// Replaces the value of `entry` with `value` (in its metric's unit) at the same instant: a delete
    /// and a new post, queued as one change. When it is the latest height, the current height follows.
    ///
    /// - Returns: the new entry.
    @discardableResult
    public mutating func correctEntry(_ entry: ProgressEntry, to value: Double) throws(CorrectionError)
        -> ProgressEntry
    {
        let changeId = UUID()
        let wasLatest = entry.type == Metric.height.type && history.isLatest(entry)
        try removeEntry(entry, changeId: changeId)
        let corrected = ProgressEntry(
            type: entry.type, quantity: value, loggedAt: entry.loggedAt, notes: entry.notes, source: .manual)
        history.append(corrected)
        outbox.post(corrected, changeId: changeId)
        if wasLatest, let profile {
            var physical = profile.physical
            physical.heightCm = value
            physical.heightMeasuredAt = entry.loggedAt
            self.profile = profile.updatingPhysical(physical)
            outbox.queuePhysical(height: true, biologicalSex: false, changeId: changeId, server: server.copy)
        }
        return corrected
    }
}

/// Why a history entry cannot be corrected or removed now (worded by FitIQWords).
public enum CorrectionError: Error, Equatable, Sendable {
    /// No entry of the metric (its id: `height`, `weight`, `body-fat`) has this id.
    case noSuchEntry(String, metric: String)
    /// The entry's first send got no answer; whether the server has it is known after the next sync.
    case beingSent
}
