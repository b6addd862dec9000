#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Corrections of the height history: removing an entry, or replacing its value at the same instant.
extension AccountState {
    /// The height entry named `id`: its server id, or its local id while it is pending (any case).
    public func heightEntry(named id: String) -> ProgressEntry? {
        let wanted = id.trimmingWhitespace()
        return history.first { entry in
            entry.type == ProgressEntry.heightType
                && (entry.serverId == wanted || entry.id.uuidString.lowercased() == wanted.lowercased())
        }
    }

    /// `180.0 cm of 2024-07-01`, in the user's units.
    func describe(_ entry: ProgressEntry, _ timeZone: LocalZone) -> String {
        let units = profile?.preferredUnitSystem ?? .metric
        return
            "\(Height.format(entry.quantity, unitSystem: units)) of \(CalendarDate(containing: entry.loggedAt, in: timeZone))"
    }

    /// The id people and scripts name an entry by: the server's, or the local one while it is pending.
    public static func publicId(of entry: ProgressEntry) -> String {
        entry.serverId ?? entry.id.uuidString.lowercased()
    }

    /// Removes the height entry `entry` (see ``heightEntry(named:)``): one never sent just leaves the
    /// outbox; one the server has is deleted there too (queued). When it was the latest entry, the
    /// current height follows the entry that is latest now.
    ///
    /// - Returns: whether the current height changed.
    @discardableResult
    public mutating func removeHeightEntry(_ entry: ProgressEntry, changeId: UUID = UUID()) throws(CorrectionError)
        -> Bool
    {
        let wasLatest = heightHistory.first?.id == entry.id
        if let post = outbox.progress.first(where: { $0.id == entry.id }) {
            // Sent once without an answer: the server may hold it, under an id not known here yet.
            guard !post.sendAttempted else { throw .beingSent }
            outbox.progress.removeAll { $0.id == entry.id }
        } else if let serverId = entry.serverId {
            removedServerIds.append(serverId)
            if removedServerIds.count > 100 { removedServerIds.removeFirst(removedServerIds.count - 100) }
            outbox.deletions.append(
                ProgressDeletion(
                    id: entry.id, serverId: serverId, quantity: entry.quantity, loggedAt: entry.loggedAt,
                    changeId: changeId, delivery: Delivery()))
        }
        history.removeAll { $0.id == entry.id }
        guard wasLatest, let latest = heightHistory.first, let profile else { return false }
        var physical = profile.physical
        physical.heightCm = latest.quantity
        physical.heightMeasuredAt = latest.loggedAt
        self.profile = profile.updatingPhysical(physical)
        queuePhysical(height: true, biologicalSex: false, changeId: changeId)
        return true
    }

    /// Replaces the value of `entry` with `centimetres` at the same instant: a delete and a new post,
    /// queued as one change. When it is the latest entry, the current height follows.
    ///
    /// - Returns: the new entry.
    @discardableResult
    public mutating func correctHeightEntry(_ entry: ProgressEntry, to centimetres: Double) throws(CorrectionError)
        -> ProgressEntry
    {
        let changeId = UUID()
        let wasLatest = heightHistory.first?.id == entry.id
        try removeHeightEntry(entry, changeId: changeId)
        let corrected = ProgressEntry(
            quantity: centimetres, loggedAt: entry.loggedAt, notes: entry.notes, source: .manual)
        history.append(corrected)
        outbox.progress.append(
            ProgressPost(
                id: corrected.id,
                entry: NewProgressEntry(
                    type: corrected.type, quantity: centimetres, loggedAt: entry.loggedAt, notes: entry.notes),
                changeId: changeId, sendAttempted: false, delivery: Delivery()))
        if wasLatest, let profile {
            var physical = profile.physical
            physical.heightCm = centimetres
            physical.heightMeasuredAt = entry.loggedAt
            self.profile = profile.updatingPhysical(physical)
            queuePhysical(height: true, biologicalSex: false, changeId: changeId)
        }
        return corrected
    }
}

/// Why a history entry cannot be corrected or removed now.
public enum CorrectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No height entry has this id.
    case noSuchEntry(String)
    /// The entry's first send got no answer; whether the server has it is known after the next sync.
    case beingSent

    public var description: String {
        switch self {
        case .noSuchEntry(let id):
            "No height entry has the id \(TextSanitizer.sanitize(id)); `fitiq-tui height history --json` lists them."
        case .beingSent:
            "That entry is being sent to the server right now; run `fitiq-tui sync` and try again."
        }
    }
}
