#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The outbox as a pure state machine: which request is due, and what an answer does to the queue.
extension AccountRecord {
    /// The next request for sender `owner` at `now`: one ordered queue per resource; a rejected entry
    /// blocks nothing, a backing-off or claimed entry delays only its own queue.
    ///
    /// - Parameters:
    ///   - isVoid: whether a claim no longer holds before its time (its holder is gone).
    ///   - reserved: entries `owner` reserved when they were saved and has not sent yet: its own claims on
    ///     them do not hold it back.
    public func nextAction(
        for owner: UUID, now: Date, isVoid: (Claim) -> Bool = { _ in false }, reserved: Set<OutboxItemID> = []
    ) -> SyncAction {
        var earliest: Date?
        func consider(_ delivery: Delivery, _ operation: @autoclosure () -> SyncOperation?) -> SyncOperation? {
            if let claim = delivery.claim, claim.until > now, !isVoid(claim),
                !(claim.owner == owner && operation().map { reserved.contains($0.item) } == true)
            {
                earliest = min(earliest ?? claim.until, claim.until)
                return nil
            }
            if let notBefore = delivery.notBefore, notBefore > now {
                earliest = min(earliest ?? notBefore, notBefore)
                return nil
            }
            return operation()
        }
        if let change = outbox.metadata, !change.delivery.isRejected,
            !change.keys.subtracting(change.conflicts).isEmpty,
            let metadata = profile?.metadata,
            // A conflicted field goes out with the server's current value until it is resolved.
            let operation = consider(
                change.delivery,
                .updateMetadata(
                    metadata.taking(change.conflicts, from: server.copy?.metadata ?? metadata),
                    revision: change.revision
                ))
        {
            return .send(operation)
        }
        if let change = outbox.physical, !change.delivery.isRejected, !pending.physicalPatch.isEmpty,
            let operation = consider(change.delivery, .updatePhysical(pending.physicalPatch, revision: change.revision))
        {
            return .send(operation)
        }
        if let deletion = outbox.deletions.first(where: { !$0.delivery.isRejected }),
            let operation = consider(deletion.delivery, .deleteProgress(id: deletion.id, serverId: deletion.serverId))
        {
            return .send(operation)
        }
        if let post = outbox.progress.first(where: { !$0.delivery.isRejected }),
            let operation = consider(
                post.delivery, .logProgress(id: post.id, post.entry, checkServerFirst: post.sendAttempted))
        {
            return .send(operation)
        }
        return earliest.map { .wait(until: $0) } ?? .idle
    }

    /// Takes what is due next for `owner` at `now`, as one write: claims of ended processes are let go,
    /// then the next request (for progress posts, up to `limit` of them from the queue's front) is
    /// claimed. The drain does it before it sends; a save that is sent at once does it in its own write,
    /// so that the send needs no write of its own (``SyncEngine/reserve(_:)``).
    public mutating func claimNext(
        for owner: UUID, now: Date, holder: ProcessIdentity?, isVoid: (Claim) -> Bool, limit: Int,
        reserved: Set<OutboxItemID> = []
    ) -> (action: SyncAction, batch: [SyncOperation]) {
        // A claim of a process that ended (killed mid-request) is taken over here.
        outbox.releaseVoidClaims(now: now, isVoid: isVoid)
        let action = nextAction(for: owner, now: now, isVoid: isVoid, reserved: reserved)
        guard case .send(let operation) = action else { return (action, []) }
        var batch = [operation]
        switch operation {
        case .logProgress:
            batch = outbox.dueProgressPosts(now: now, limit: limit, isVoid: isVoid, owner: owner, reserved: reserved)
        case .updatePhysical:
            // Another resource: a height's PATCH and its history entry's POST go out together, and are
            // acknowledged in one write.
            batch += outbox.dueProgressPosts(now: now, limit: limit, isVoid: isVoid, owner: owner, reserved: reserved)
        case .updateMetadata, .deleteProgress:
            break
        }
        for operation in batch { begin(operation, owner: owner, now: now, holder: holder) }
        return (action, batch)
    }

    /// Marks the entry of `operation` as in flight for `owner`; a progress entry is marked as attempted
    /// before anything is sent, so a crash mid-request leads to a check instead of a duplicate.
    public mutating func begin(_ operation: SyncOperation, owner: UUID, now: Date, holder: ProcessIdentity? = nil) {
        let claim = Claim(owner: owner, until: now.addingTimeInterval(Outbox.claimDuration), holder: holder)
        // What goes out may reach the server though its answer is lost: a later read that shows it
        // shows this account's own value, not another device's change (no made-up conflict).
        switch operation {
        case .updateMetadata(let sent, _):
            for key in outbox.metadata?.keys.subtracting(outbox.metadata?.conflicts ?? []) ?? [] {
                server.acknowledge(ServerRecord.field(for: key), sent.value(of: key))
            }
        case .updatePhysical(let sent, _):
            if let height = sent.heightCm { server.acknowledge("height", ServerRecord.heightText(height)) }
        case .logProgress, .deleteProgress:
            break
        }
        switch operation.item {
        case .metadata: outbox.metadata?.delivery.claim = claim
        case .physical: outbox.physical?.delivery.claim = claim
        case .progress(let id):
            guard let index = outbox.progress.firstIndex(where: { $0.id == id }) else { return }
            outbox.progress[index].delivery.claim = claim
            outbox.progress[index].sendAttempted = true
        case .deletion(let id):
            guard let index = outbox.deletions.firstIndex(where: { $0.id == id }) else { return }
            outbox.deletions[index].delivery.claim = claim
            outbox.deletions[index].sendAttempted = true
        }
    }

    /// Applies the outcome of `operation` to the outbox.
    public mutating func finish(_ operation: SyncOperation, outcome: SyncOutcome, now: Date, random: Double) {
        func settle(_ delivery: inout Delivery) {
            delivery.claim = nil
            switch outcome {
            case .retry(let problem):
                delivery.attempts += 1
                delivery.lastProblem = problem
                delivery.notBefore = now.addingTimeInterval(
                    Outbox.backoff(afterAttempts: delivery.attempts, random: random))
            case .rejected(let message):
                delivery.rejection = message
            case .delivered, .saved, .logged, .abandoned:
                break
            }
        }
        let acknowledged = outcome.isAcknowledged
        if acknowledged { server.lastSyncAt = now }
        if case .saved(let updatedAt?) = outcome {
            // The answer is the server's copy now: a read that finds it unchanged has nothing to merge.
            server.copy?.updatedAt = updatedAt
            profile = profile?.updatingTimestamps(createdAt: nil, updatedAt: updatedAt)
        }
        switch operation {
        case .updateMetadata(let sent, let revision):
            guard var change = outbox.metadata else { return }
            if acknowledged {
                server.copy?.metadata = sent
                for key in change.keys where !change.conflicts.contains(key) {
                    server.acknowledge(ServerRecord.field(for: key), sent.value(of: key))
                }
                // A newer edit arrived while this request was in flight: keep it queued. Conflicted
                // fields were not sent: they stay, waiting to be resolved.
                if change.revision == revision {
                    change.keys = change.conflicts
                    change.bases = change.bases.filter { change.conflicts.contains($0.key) }
                    change.delivery = Delivery()
                    outbox.metadata = change.keys.isEmpty ? nil : change
                } else {
                    // The server now holds what was sent: that is what the newer edit is based on
                    // (a conflicted field went out with the server's value and stays conflicted).
                    for key in change.keys where !change.conflicts.contains(key) {
                        change.bases[key] = sent.value(of: key)
                    }
                    outbox.metadata = change
                }
                outbox.metadata?.delivery.claim = nil
                return
            }
            settle(&change.delivery)
            outbox.metadata = change
        case .updatePhysical(let sent, let revision):
            guard var change = outbox.physical else { return }
            if acknowledged {
                if let height = sent.heightCm {
                    server.copy?.heightCm = height
                    server.acknowledge("height", ServerRecord.heightText(height))
                }
                if let sex = sent.biologicalSex { server.copy?.biologicalSex = sex }
                if change.revision == revision {
                    // A conflicted height was not sent: it stays, waiting to be resolved.
                    change.includesBiologicalSex = false
                    change.delivery = Delivery()
                    outbox.physical = change.heightConflict ? change : nil
                } else {
                    if let height = sent.heightCm, change.includesHeight, !change.heightConflict {
                        change.heightBase = height  // the newer edit is based on what the server now holds
                        change.hasHeightBase = true
                    }
                    outbox.physical = change
                }
                outbox.physical?.delivery.claim = nil
                return
            }
            settle(&change.delivery)
            outbox.physical = change
        case .logProgress(let id, _, _):
            guard let index = outbox.progress.firstIndex(where: { $0.id == id }) else { return }
            if case .logged(let serverId) = outcome {
                outbox.progress.remove(at: index)
                if let entry = history.firstIndex(where: { $0.id == id }) { history[entry].serverId = serverId }
                return
            }
            settle(&outbox.progress[index].delivery)
        case .deleteProgress(let id, _):
            guard let index = outbox.deletions.firstIndex(where: { $0.id == id }) else { return }
            if acknowledged {
                outbox.deletions.remove(at: index)
                return
            }
            settle(&outbox.deletions[index].delivery)
        }
    }

}

extension AccountState {
    /// Drops an entry and reverts its local values to the server's last known ones.
    public mutating func discard(_ item: OutboxItemID) {
        switch item {
        case .metadata:
            guard let change = outbox.metadata, let profile else { return }
            if let server = server.copy?.metadata {
                self.profile = profile.updatingMetadata(profile.metadata.taking(change.keys, from: server))
            }
            outbox.metadata = nil
        case .physical:
            guard let change = outbox.physical, let profile else { return }
            var physical = profile.physical
            if change.includesHeight, let height = server.copy?.heightCm { physical.heightCm = height }
            self.profile = profile.updatingPhysical(physical)
            outbox.physical = nil
        case .progress(let id):
            outbox.progress.removeAll { $0.id == id }
            history.removeAll { $0.id == id && $0.serverId == nil }
        case .deletion(let id):
            // The server still has the entry: it shows here again.
            guard let deletion = outbox.deletions.first(where: { $0.id == id }) else { return }
            outbox.deletions.removeAll { $0.id == id }
            history.append(deletion.entry)
        }
    }
}
