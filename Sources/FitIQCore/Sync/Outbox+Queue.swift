#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outbox's queues: what an edit adds, and which posts go out next.
extension Outbox {
    /// Queues the metadata fields `keys` (coalesced: one `PUT` carries them all); a field edited for
    /// the first time since it was last sent remembers the server value it was edited from, an edit on
    /// top of a pending one keeps the first base.
    mutating func queueMetadata(_ keys: Set<ProfileMetadata.Key>, server: ProfileMetadata?) {
        var change = metadata ?? MetadataChange(changeId: UUID(), revision: 0, keys: [], delivery: Delivery())
        if let server {
            for key in keys where !change.keys.contains(key) { change.bases[key] = server.value(of: key) }
        }
        change.keys.formUnion(keys)
        change.revision += 1
        change.delivery.reopen()
        metadata = change
    }

    /// Queues the `POST /progress` of `entry`, a change of its own unless `changeId` names another
    /// (a correction's delete and post are one change).
    mutating func post(_ entry: ProgressEntry, changeId: UUID? = nil) {
        let body = NewProgressEntry(
            type: entry.type, quantity: entry.quantity, loggedAt: entry.loggedAt, notes: entry.notes)
        progress.append(
            ProgressPost(
                id: entry.id, entry: body, changeId: changeId ?? entry.id, sendAttempted: false, delivery: Delivery()))
    }

    /// Queues the physical fields named (coalesced with what is queued); a height queued for the first
    /// time since it was last sent remembers the server's height it was edited from.
    mutating func queuePhysical(height: Bool, biologicalSex: Bool, changeId: UUID, server: RemoteProfile?) {
        var change =
            physical
            ?? PhysicalChange(
                revision: 0, includesHeight: false, includesBiologicalSex: false, changeIds: [], delivery: Delivery())
        if height && !change.includesHeight, let server {
            change.heightBase = server.heightCm
            change.hasHeightBase = true
        }
        change.includesHeight = change.includesHeight || height
        change.includesBiologicalSex = change.includesBiologicalSex || biologicalSex
        change.changeIds.insert(changeId)
        change.revision += 1
        change.delivery.reopen()
        physical = change
    }

    /// Up to `limit` progress posts that are due at `now`, from the front of their queue. The batch ends
    /// at the first entry that is claimed or backing off, so the queue keeps its order; rejected entries
    /// are passed over as ``AccountRecord/nextAction(for:now:isVoid:reserved:)`` does.
    public func dueProgressPosts(
        now: Date, limit: Int, isVoid: (Claim) -> Bool = { _ in false }, owner: UUID? = nil,
        reserved: Set<OutboxItemID> = []
    ) -> [SyncOperation] {
        var operations: [SyncOperation] = []
        for post in progress where !post.delivery.isRejected {
            guard operations.count < limit else { break }
            if let claim = post.delivery.claim, claim.until > now, !isVoid(claim),
                !(claim.owner == owner && reserved.contains(.progress(post.id)))
            {
                break
            }
            if let notBefore = post.delivery.notBefore, notBefore > now { break }
            operations.append(.logProgress(id: post.id, post.entry, checkServerFirst: post.sendAttempted))
        }
        return operations
    }

    /// Marks the pending fields that `remote` (the server's profile now) conflicts with.
    ///
    /// A change another sender has on its way is not judged (`isHeld`): the server may already hold
    /// what it carries while this machine holds a newer edit. Its answer moves the base on, and the next
    /// check judges it.
    mutating func detectConflicts(
        _ remote: RemoteProfile, local profile: UserProfile?, server: ServerRecord,
        isHeld: (Claim) -> Bool = { _ in true }
    ) {
        func judged(_ delivery: Delivery) -> Bool { delivery.claim.map { !isHeld($0) } ?? true }
        if var change = metadata, judged(change.delivery), let local = profile?.metadata {
            for key in change.keys {
                guard let base = change.bases[key] else { continue }
                let now = remote.metadata.value(of: key)
                if now == local.value(of: key) {
                    change.conflicts.remove(key)  // the same change on both sides
                } else if now != base, !server.isOwn(now, of: ServerRecord.field(for: key)) {
                    change.conflicts.insert(key)
                } else {
                    change.conflicts.remove(key)  // the base again, or this account's own earlier value
                }
            }
            metadata = change
        }
        if var change = physical, judged(change.delivery), change.includesHeight, change.hasHeightBase,
            let local = profile?.heightCm
        {
            func same(_ a: Double?, _ b: Double?) -> Bool {
                switch (a, b) {
                case (nil, nil): true
                case (let a?, let b?): abs(a - b) < 0.05
                default: false
                }
            }
            if same(remote.heightCm, local) {
                change.heightConflict = false
            } else if let now = remote.heightCm, !same(now, change.heightBase),
                !server.isOwn(ServerRecord.heightText(now), of: "height")
            {
                change.heightConflict = true
            } else {
                change.heightConflict = false
            }
            physical = change
        }
    }
}
