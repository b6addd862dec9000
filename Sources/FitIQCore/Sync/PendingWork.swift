#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What is waiting for the server, as a person reads it: the outbox with the profile it sends and
/// the server's values it was edited from (``AccountRecord/pending``). Status, the sync details,
/// the logout refusal and each form's mark are built from it.
public struct PendingWork: Sendable {
    public let outbox: Outbox
    public let profile: UserProfile?
    public let server: ServerRecord

    /// The outbox as a list a person can read, in queue order.
    ///
    /// - Parameters:
    ///   - now: with it, each change says what holds it back then (``PendingChange/hold``).
    ///   - isRunning: whether a claim's holder still runs; a claim of a process that ended holds nothing.
    ///   - limit: the most changes listed (an import queues thousands; the counts need no list).
    public func changes(
        timeZone: LocalZone = .utc, now: Date? = nil, isRunning: (ProcessIdentity) -> Bool = { _ in true },
        limit: Int = .max
    ) -> [PendingChange] {
        var changes: [PendingChange] = []
        changes.reserveCapacity(max(0, min(limit, listLength)))
        func hold(_ delivery: Delivery, conflicted: Bool = false) -> PendingChange.Hold? {
            guard delivery.rejection == nil else { return nil }
            if conflicted { return .conflict }
            guard let now else { return nil }
            if let claim = delivery.claim, claim.until > now, claim.holder.map(isRunning) ?? true {
                return .sending(pid: claim.holder?.pid)
            }
            if let notBefore = delivery.notBefore, notBefore > now { return .backoff(until: notBefore) }
            return nil
        }
        let units = profile?.preferredUnitSystem ?? .metric
        if let change = outbox.metadata, limit > 0 {
            changes.append(
                PendingChange(
                    item: .metadata, subject: .profile(fields: change.keys.sorted().map(\.field)),
                    rejection: change.delivery.rejection,
                    lastProblem: change.delivery.lastProblem, changeCount: 1,
                    hold: hold(change.delivery, conflicted: change.keys.isSubset(of: change.conflicts))))
        }
        if let change = outbox.physical, changes.count < limit {
            let patch = physicalPatch
            changes.append(
                PendingChange(
                    item: .physical,
                    subject: .physical(
                        heightCm: patch.heightCm, biologicalSex: patch.biologicalSex, units: units),
                    rejection: change.delivery.rejection, lastProblem: change.delivery.lastProblem,
                    changeCount: physicalChangeCount(change),
                    hold: hold(change.delivery, conflicted: change.heightConflict && !change.includesBiologicalSex)))
        }
        guard changes.count < limit else { return changes }
        // A history entry to remove or to send (its metric, value and time), in the user's units and
        // time zone.
        func entryChange(
            _ item: OutboxItemID, _ subject: (String, Double, CalendarDate, UnitSystem) -> PendingChange.Subject,
            of entry: (type: String, quantity: Double, loggedAt: Date), delivery: Delivery, changeCount: Int
        ) -> PendingChange {
            let day = CalendarDate(containing: entry.loggedAt, in: timeZone)
            return PendingChange(
                item: item, subject: subject(entry.type, entry.quantity, day, units), rejection: delivery.rejection,
                lastProblem: delivery.lastProblem, changeCount: changeCount, hold: hold(delivery))
        }
        let corrections = self.corrections
        for deletion in outbox.deletions.prefix(limit - changes.count) {
            changes.append(
                entryChange(
                    .deletion(deletion.id), PendingChange.Subject.removal,
                    of: (deletion.entry.type, deletion.entry.quantity, deletion.entry.loggedAt),
                    delivery: deletion.delivery,
                    // A correction (delete and post) is one change, counted with its post.
                    changeCount: corrections.contains(deletion.changeId) ? 0 : 1))
        }
        for post in outbox.progress.prefix(limit - changes.count) {
            changes.append(
                entryChange(
                    .progress(post.id), PendingChange.Subject.entry,
                    of: (post.entry.type, post.entry.quantity, post.entry.loggedAt), delivery: post.delivery,
                    changeCount: 1))
        }
        return changes
    }

    /// How many changes ``changes(timeZone:now:isRunning:limit:)`` lists without a limit.
    public var listLength: Int {
        (outbox.metadata == nil ? 0 : 1) + (outbox.physical == nil ? 0 : 1) + outbox.deletions.count
            + outbox.progress.count
    }

    /// Each change's delivery and how many user-visible changes it carries, in the order of
    /// ``changes(timeZone:now:isRunning:limit:)``, looked through in place: counting the thousands of
    /// posts an import queues lists none of them.
    private func forEachDelivery(_ body: (Delivery, _ changeCount: Int) -> Void) {
        if let change = outbox.metadata { body(change.delivery, 1) }
        if let change = outbox.physical { body(change.delivery, physicalChangeCount(change)) }
        let corrections = self.corrections
        for deletion in outbox.deletions { body(deletion.delivery, corrections.contains(deletion.changeId) ? 0 : 1) }
        for post in outbox.progress { body(post.delivery, 1) }
    }

    /// The changes (by id) that post an entry: a deletion among them is half of a correction.
    private var corrections: Set<UUID> {
        outbox.deletions.isEmpty ? [] : Set(outbox.progress.map(\.changeId))
    }

    /// The changes the physical `PATCH` carries alone: height changes are counted with their history
    /// entries.
    private func physicalChangeCount(_ change: PhysicalChange) -> Int {
        var covered = Set<UUID>()
        for post in outbox.progress where change.changeIds.contains(post.changeId) { covered.insert(post.changeId) }
        for deletion in outbox.deletions where change.changeIds.contains(deletion.changeId) {
            covered.insert(deletion.changeId)
        }
        return change.changeIds.count - covered.count
    }

    /// User-visible changes not yet acknowledged and not rejected (a height change counts once).
    public var count: Int {
        var count = 0
        forEachDelivery { delivery, changes in if delivery.rejection == nil { count += changes } }
        return count
    }

    /// User-visible changes the server refused.
    public var rejectedCount: Int {
        var count = 0
        forEachDelivery { delivery, changes in if delivery.rejection != nil { count += max(1, changes) } }
        return count
    }

    /// The last retryable failure of a change, in queue order.
    public var lastProblem: SyncProblem? {
        var last: SyncProblem?
        forEachDelivery { delivery, _ in last = delivery.lastProblem ?? last }
        return last
    }

    /// Whether a change waits because its last attempt found no way to the server.
    public var waitsForAWayToTheServer: Bool {
        var found = false
        forEachDelivery { delivery, _ in found = found || delivery.lastProblem?.isOffline == true }
        return found
    }

    /// The profile form's change: the one coalesced `PUT /users/me`.
    public var metadataStatus: FormChangeStatus {
        guard let change = outbox.metadata else { return .settled }
        return FormChangeStatus(isPending: true, rejection: change.delivery.rejection)
    }

    /// The physical form's changes: the `PATCH /users/me/physical` and every measurement's posts and
    /// deletions; a refused one is named first.
    public var physicalStatus: FormChangeStatus {
        guard !outbox.progress.isEmpty || !outbox.deletions.isEmpty || outbox.physical != nil else {
            return .settled
        }
        // Looked through in place: an import queues thousands of posts, and this is asked at every view.
        let rejection =
            outbox.progress.lazy.compactMap(\.delivery.rejection).first
            ?? outbox.deletions.lazy.compactMap(\.delivery.rejection).first ?? outbox.physical?.delivery.rejection
        return FormChangeStatus(isPending: true, rejection: rejection)
    }

    /// Every conflicted field with both values.
    public var conflicts: [FieldConflict] {
        var found: [FieldConflict] = []
        if let change = outbox.metadata, let local = profile?.metadata, let server = server.copy?.metadata {
            for key in change.conflicts.sorted() {
                found.append(
                    FieldConflict(
                        field: ServerRecord.field(for: key), local: local.value(of: key), server: server.value(of: key))
                )
            }
        }
        if let change = outbox.physical, change.heightConflict, let local = profile?.heightCm {
            let units = profile?.preferredUnitSystem ?? .metric
            found.append(
                FieldConflict(
                    field: "height", local: Height.format(local, unitSystem: units),
                    server: server.copy?.heightCm.map { Height.format($0, unitSystem: units) } ?? "none"))
        }
        return found
    }

    /// The physical body to send: only fields queued, biological sex only when the health source gave it.
    public var physicalPatch: PhysicalPatch {
        guard let change = outbox.physical, let physical = profile?.physical else { return PhysicalPatch() }
        let sex = physical.biologicalSex.flatMap { $0.source == .health ? $0.value : nil }
        return PhysicalPatch(
            heightCm: change.includesHeight && !change.heightConflict ? physical.heightCm : nil,
            biologicalSex: change.includesBiologicalSex ? sex : nil)
    }
}

extension AccountRecord {
    /// What is waiting for the server.
    public var pending: PendingWork { PendingWork(outbox: outbox, profile: profile, server: server) }
}

/// Where the changes of one form stand, as a screen shows them under the form: nothing waiting,
/// waiting to be sent, or refused with the server's message. Screens read this, not the outbox.
public struct FormChangeStatus: Sendable, Equatable {
    /// Whether any change of the form is not on the server yet.
    public var isPending: Bool
    /// The server's message for a change it refused, if one was.
    public var rejection: String?

    public init(isPending: Bool, rejection: String? = nil) {
        self.isPending = isPending
        self.rejection = rejection
    }

    /// Nothing waiting.
    public static let settled = FormChangeStatus(isPending: false)
}
