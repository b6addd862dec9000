#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Pull merge: the server's copy replaces local values only where no local edit is pending.
extension AccountRecord {
    /// Merges a profile read from the server (`GET /users/me`).
    ///
    /// - Parameters:
    ///   - judge: the sender reading it: its own claims (a change it reserved at a save) do not keep a
    ///     change from being judged for conflicts; another live sender's do.
    ///   - isVoid: whether a claim no longer holds before its time (its holder is gone).
    /// - Returns: whether a biological sex from the health source had to be queued again because the
    ///   server holds another value.
    @discardableResult
    public mutating func mergeServerProfile(
        _ remote: RemoteProfile, identity: AccountIdentity, now: Date, judge: UUID? = nil,
        isVoid: (Claim) -> Bool = { _ in false }
    ) -> Bool {
        server.copy = remote
        server.lastSyncAt = now
        var identity = identity
        identity.profileId = remote.profileId ?? profile?.identity.profileId
        guard let local = profile else {
            let sex = remote.biologicalSex.map { SourcedBiologicalSex(value: $0, source: .account) }
            let physical = PhysicalProfile(
                heightCm: remote.heightCm, heightMeasuredAt: remote.heightCm == nil ? nil : remote.updatedAt,
                dateOfBirth: remote.dateOfBirth, biologicalSex: sex)
            profile = UserProfile(
                identity: identity, metadata: remote.metadata, physical: physical, createdAt: remote.createdAt,
                updatedAt: remote.updatedAt)
            return false
        }
        outbox.detectConflicts(remote, local: profile, server: server) { claim in
            claim.owner != judge && claim.until > now && !isVoid(claim)
        }
        let pendingKeys = outbox.metadata?.keys ?? []
        var merged = local.updatingIdentity(identity)
            .updatingMetadata(remote.metadata.taking(pendingKeys, from: local.metadata))
            .updatingTimestamps(createdAt: remote.createdAt, updatedAt: remote.updatedAt)
        var physical = local.physical
        // A server null never erases a local physical value.
        if let height = remote.heightCm, outbox.physical?.includesHeight != true,
            abs(height - (physical.heightCm ?? -1)) >= 0.05
        {
            physical.heightCm = height
            physical.heightMeasuredAt = remote.updatedAt ?? now
        }
        if let dateOfBirth = remote.dateOfBirth { physical.dateOfBirth = dateOfBirth }
        var requeueSex = false
        switch (physical.biologicalSex, remote.biologicalSex) {
        case (.some(let local), let remoteSex) where local.source == .health:
            // The health source stays true: a server holding another value, or none at all (a profile
            // recreated, a value lost), gets the health value again.
            requeueSex = local.value != remoteSex && outbox.physical?.includesBiologicalSex != true
        case (_, .some(let remoteSex)):
            physical.biologicalSex = SourcedBiologicalSex(value: remoteSex, source: .account)
        case (_, nil):
            break
        }
        merged = merged.updatingPhysical(physical)
        profile = merged
        if requeueSex {
            outbox.queuePhysical(height: false, biologicalSex: true, changeId: UUID(), server: server.copy)
        }
        return requeueSex
    }

    /// Merges entries of `metric` read from the server (entries of other types are ignored).
    ///
    /// - Parameters:
    ///   - complete: the entries are the server's whole history of `metric`, so synced local entries
    ///     of it missing from it were deleted on the server and are dropped.
    ///   - knownBeforeRead: the server ids the cache held when the read began (default: every one held
    ///     now). Only those can be judged deleted: another process may have delivered an entry after
    ///     the read, and it is on the server although the read does not list it.
    public mutating func mergeServerHistory(
        _ entries: [RemoteProgressEntry], of metric: Metric, complete: Bool, knownBeforeRead: Set<String>? = nil,
        now: Date
    ) {
        server.historyCheckedAt = now
        // Entries removed here stay removed, even when a read that began before the removal lists them.
        var known = Set(history.compactMap(\.serverId)).union(server.removedIds)
        // Where the entry of each queued post is: found once, not once per entry read.
        let posted = Set(outbox.progress.map(\.id))
        var postedAt: [UUID: Int] = [:]
        if !posted.isEmpty {
            for (index, entry) in history.enumerated() where posted.contains(entry.id) { postedAt[entry.id] = index }
        }
        for remote in entries where remote.type == metric.type && !known.contains(remote.id) {
            let candidate = ProgressEntry(
                serverId: remote.id, type: remote.type, quantity: remote.quantity, loggedAt: remote.loggedAt,
                notes: remote.notes, source: .server)
            // A post whose answer was lost, or an imported sample the server got from another machine:
            // the server has it, so it is acknowledged now.
            if let post = outbox.progress.first(where: { post in
                guard let index = postedAt[post.id] else { return false }
                let entry = history[index]
                return (post.sendAttempted || entry.source == .health) && entry.isSameReading(as: candidate)
            }) {
                outbox.progress.removeAll { $0.id == post.id }
                if let index = postedAt[post.id] { history[index].serverId = remote.id }
            } else {
                history.append(candidate)
            }
            known.insert(remote.id)
        }
        if complete {
            let onServer = Set(entries.map(\.id))
            let judged = knownBeforeRead ?? known
            history.removeAll { entry in
                guard entry.type == metric.type, let id = entry.serverId else { return false }
                return judged.contains(id) && !onServer.contains(id)
            }
        }
    }

    /// Queues the first height entry when the server's profile has a height but no height history
    /// exists anywhere (docs/architecture.md "Height history starts somewhere").
    ///
    /// - Returns: whether an entry was queued.
    @discardableResult
    public mutating func queueInitialHeightIfNeeded(serverHasHeightEntries: Bool, now: Date) -> Bool {
        // A history emptied by the user's own removals did start somewhere: it is not started again.
        guard !serverHasHeightEntries, history.latest(of: .height) == nil,
            !outbox.progress.contains(where: { $0.entry.type == Metric.height.type }), server.removedIds.isEmpty,
            outbox.deletions.isEmpty, let height = server.copy?.heightCm
        else { return false }
        let loggedAt = server.copy?.updatedAt ?? now
        let entry = ProgressEntry(
            quantity: height, loggedAt: loggedAt, notes: ProgressEntry.initialHeightNote, source: .server)
        history.append(entry)
        outbox.post(entry)
        return true
    }
}
