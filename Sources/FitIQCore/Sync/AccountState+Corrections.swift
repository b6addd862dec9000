#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Corrections of a measurement history: removing an entry, or replacing its value at the same instant.
extension AccountState {
    /// The entry of `metric` named `id`: its server id, or its local id while it is pending (any case).
    public func entry(of metric: Metric, named id: String) -> ProgressEntry? {
        let wanted = id.trimmingWhitespace()
        return history.first { entry in
            entry.type == metric.type
                && (entry.serverId == wanted || entry.id.uuidString.lowercased() == wanted.lowercased())
        }
    }
}

extension AccountRecord {
    /// The newest entry of `metric`.
    public func latestEntry(of metric: Metric) -> ProgressEntry? {
        history.lazy.filter { $0.type == metric.type }.max { $0.loggedAt < $1.loggedAt }
    }

    /// Whether `entry` is the newest of its metric.
    func isLatest(_ entry: ProgressEntry) -> Bool {
        !history.contains { $0.type == entry.type && $0.loggedAt > entry.loggedAt && $0.id != entry.id }
            && history.contains { $0.id == entry.id }
    }

    /// What undo says of removing `entry`: `the removal of the weight 72.4 kg of 2024-07-01`.
    func removalStep(_ entry: ProgressEntry, _ timeZone: LocalZone) -> String {
        Metric.removalStep(
            type: entry.type, entry.quantity, on: CalendarDate(containing: entry.loggedAt, in: timeZone),
            unitSystem: profile?.preferredUnitSystem ?? .metric)
    }

    /// What undo says of correcting `entry`: `the correction of the weight 72.4 kg of 2024-07-01`.
    func correctionStep(_ entry: ProgressEntry, _ timeZone: LocalZone) -> String {
        Metric.correctionStep(
            type: entry.type, entry.quantity, on: CalendarDate(containing: entry.loggedAt, in: timeZone),
            unitSystem: profile?.preferredUnitSystem ?? .metric)
    }
}

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
        let wasLatest = entry.type == Metric.height.type && isLatest(entry)
        if let post = outbox.progress.first(where: { $0.id == entry.id }) {
            // Sent once without an answer: the server may hold it, under an id not known here yet.
            guard !post.sendAttempted else { throw .beingSent }
            outbox.progress.removeAll { $0.id == entry.id }
        } else if let serverId = entry.serverId {
            removedServerIds.append(serverId)
            if removedServerIds.count > 100 { removedServerIds.removeFirst(removedServerIds.count - 100) }
            outbox.deletions.append(
                ProgressDeletion(
                    id: entry.id, serverId: serverId, type: entry.type, quantity: entry.quantity,
                    loggedAt: entry.loggedAt,
                    changeId: changeId, delivery: Delivery()))
        }
        history.removeAll { $0.id == entry.id }
        guard wasLatest, let latest = latestEntry(of: .height), let profile else { return false }
        var physical = profile.physical
        physical.heightCm = latest.quantity
        physical.heightMeasuredAt = latest.loggedAt
        self.profile = profile.updatingPhysical(physical)
        queuePhysical(height: true, biologicalSex: false, changeId: changeId)
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
        let wasLatest = entry.type == Metric.height.type && isLatest(entry)
        try removeEntry(entry, changeId: changeId)
        let corrected = ProgressEntry(
            type: entry.type, quantity: value, loggedAt: entry.loggedAt, notes: entry.notes, source: .manual)
        history.append(corrected)
        outbox.progress.append(
            ProgressPost(
                id: corrected.id,
                entry: NewProgressEntry(
                    type: corrected.type, quantity: value, loggedAt: entry.loggedAt, notes: entry.notes),
                changeId: changeId, sendAttempted: false, delivery: Delivery()))
        if wasLatest, let profile {
            var physical = profile.physical
            physical.heightCm = value
            physical.heightMeasuredAt = entry.loggedAt
            self.profile = profile.updatingPhysical(physical)
            queuePhysical(height: true, biologicalSex: false, changeId: changeId)
        }
        return corrected
    }
}

/// Why a history entry cannot be corrected or removed now.
public enum CorrectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No entry of the metric (its id: `height`, `weight`, `body-fat`) has this id.
    case noSuchEntry(String, metric: String)
    /// The entry's first send got no answer; whether the server has it is known after the next sync.
    case beingSent

    public var description: String {
        switch self {
        case .noSuchEntry(let id, let metric):
            "No \(metric) entry has the id \(TextSanitizer.sanitize(id)); `fitiq-tui \(metric) history --json` lists them."
        case .beingSent:
            "That entry is being sent to the server right now; run `fitiq-tui sync` and try again."
        }
    }
}
