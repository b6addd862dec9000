#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading the server's copy: the profile, and each metric's history.
extension SyncEngine {
    /// Reads the server's profile (creating it on 404) and merges it into the cache; with
    /// `savingUnchanged` false, a copy equal to the one last merged writes nothing.
    @discardableResult
    public func pull(nameForNewProfile: String? = nil, savingUnchanged: Bool = true) async throws -> RecentAccountState
    {
        let remote = try await readProfile(nameForNewProfile: nameForNewProfile)
        let identity = self.identity
        let now = environment.now()
        let (owner, isVoid) = (self.owner, self.isVoid)
        // The profile's merge touches no history: the state returned may hold only its latest entries.
        return try await store.updateRecent { state in
            // The server's copy as last merged: every conflict and value it implies is in the cache.
            if !savingUnchanged, state.server.copy?.holdsTheSameValues(as: remote) == true { return state }
            state.mergeServerProfile(remote, identity: identity, now: now, judge: owner, isVoid: isVoid)
            return state
        }
    }

    /// The server's profile, created from the cached one (or with `nameForNewProfile`) when it has none.
    private func readProfile(nameForNewProfile: String?) async throws -> RemoteProfile {
        let local = try await store.overview().state
        let metadata =
            local.profile?.metadata
            ?? ProfileMetadata(name: nameForNewProfile ?? Self.defaultName(for: identity.email))
        return try await fetchProfile(creatingWith: metadata)
    }

    /// Reads the profile and each metric's history, and merges them in one write of the cache, the
    /// profile first, as ``pull(nameForNewProfile:savingUnchanged:)`` then ``refreshHistory(full:)``
    /// would: the history's pages go out while the profile's answer is awaited (a first sync of a short
    /// history waited for one more round trip, and wrote the cache twice). A profile that cannot be read
    /// merges nothing; a history that cannot be read is left out, and its error thrown after the write.
    /// Returns the outbox as the merge left it.
    @discardableResult
    public func pullAll(full: Bool, nameForNewProfile: String? = nil) async throws -> Outbox {
        // The profile's request takes a place in the histories' window: the first pages of every type the
        // server records (``Metric/recorded``: its BMI entries too) fill it at once, and the window is
        // what the server sees of this client.
        let window = RequestWindow(size: Self.pagesInFlight)
        async let histories = readHistories(full: full, window: window)
        await window.enter()
        let remote: RemoteProfile
        do {
            remote = try await readProfile(nameForNewProfile: nameForNewProfile)
        } catch {
            await window.leave()
            throw error
        }
        await window.leave()
        return try await merge(await histories, profile: remote)
    }

    /// Reads each metric's history from the server (every type it records, ``Metric/recorded``: a `bmi`
    /// entry another client posted is kept too) and merges it; a full read of the heights also
    /// applies the initial-height rule.
    ///
    /// The metrics are read together, sharing one window of ``pagesInFlight`` requests (a long history of
    /// one no longer waits for the first page of the others), then merged in their order in one write of
    /// the cache; a metric that could not be read is not merged, and the first such error is thrown after
    /// the others were.
    public func refreshHistory(full: Bool) async throws {
        try await merge(await readHistories(full: full), profile: nil)
    }

    private func readHistories(full: Bool, window: RequestWindow? = nil) async throws -> [HistoryOutcome] {
        let overview = try await store.overview()
        let window = window ?? RequestWindow(size: Self.pagesInFlight)
        return await withTaskGroup(of: HistoryOutcome.self) { group in
            for metric in Metric.recorded {
                group.addTask {
                    var outcome = HistoryOutcome(metric: metric)
                    do {
                        outcome.read = try await self.readHistory(
                            of: metric, full: full, overview: overview, window: window)
                    } catch {
                        outcome.error = error
                    }
                    return outcome
                }
            }
            var outcomes: [HistoryOutcome] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// Merges the server's `profile`, when given, then the reads in the metrics' order, in one write: of
    /// the latest entries when no read needs more of the history than those. Then throws the first
    /// metric's error, if any; returns the outbox as the merge left it.
    @discardableResult
    private func merge(_ outcomes: [HistoryOutcome], profile remote: RemoteProfile?) async throws -> Outbox {
        let reads = Metric.recorded.compactMap { metric in outcomes.first { $0.metric == metric }?.read }
        let failure = Metric.recorded.lazy.compactMap { metric in outcomes.first { $0.metric == metric }?.error }.first
        // No read and no profile: every metric failed, and there is nothing to write.
        if reads.isEmpty, remote == nil, let failure { throw failure }
        let now = environment.now()
        let (identity, owner, isVoid) = (self.identity, self.owner, self.isVoid)
        @Sendable func change(_ state: inout AccountRecord<some EntryList>) -> Outbox {
            if let remote {
                state.mergeServerProfile(remote, identity: identity, now: now, judge: owner, isVoid: isVoid)
            }
            for read in reads { state.merge(read, now: now) }
            return state.outbox
        }
        let outbox =
            reads.allSatisfy({ !$0.complete || $0.holdsAll })
            ? try await store.updateRecent { change(&$0) } : try await store.update { change(&$0) }
        if let failure { throw failure }
        return outbox
    }

    /// One metric's read, or why it failed.
    struct HistoryOutcome: Sendable {
        var metric: Metric
        var read: HistoryRead?
        var error: (any Error)?
    }

    /// One metric's entries as read from the server, and what the merge needs to know about the read.
    struct HistoryRead: Sendable {
        var metric: Metric
        var entries: [RemoteProgressEntry]
        var complete: Bool
        var holdsAll: Bool
        var knownBeforeRead: Set<String>
    }

    private func readHistory(
        of metric: Metric, full: Bool, overview: AccountOverview, window: RequestWindow
    ) async throws -> HistoryRead {
        // The newest synced entry is among the latest ones when any of them is synced; a read of what is
        // new since then merges on them (``ProfileStore/updateRecent``) and touches the rest only when
        // it finds more than newer entries. A complete read judges every entry of the metric: it reads
        // them all, from the cache's latest entries when those are all there are (a metric never
        // logged costs no read of the other histories).
        let recent = overview.state.history(of: metric)
        let today = CalendarDate(containing: environment.now(), in: environment.timeZone)
        let newestSynced = recent.first(where: \.isSynced)
        let complete = full || newestSynced == nil
        let from =
            complete
            ? CalendarDate(year: 1900, month: 1, day: 1)
            : newestSynced.map { CalendarDate(containing: $0.loggedAt, in: .utc).adding(days: -1) }
        let holdsAll = overview.isComplete || recent.count >= (overview.summaries[metric.type]?.count ?? 0)
        let knownBeforeRead =
            complete
            ? Set((holdsAll ? recent : try await store.load().history(of: metric)).compactMap(\.serverId)) : []
        var entries = try await fetchAll(
            ProgressQuery(type: metric.type, from: from, to: today.adding(days: 1)), window: window)
        // A read of what is new starts a day before the newest synced entry: on a day of more entries
        // than the latest ones held, it gives entries older than those, which the merge would take for
        // new and place by reading the whole history. Which of them are known is read from their months.
        if !complete, !holdsAll, let oldestHeld = recent.last?.loggedAt,
            let oldestRead = entries.lazy.map(\.loggedAt).min(), oldestRead < oldestHeld
        {
            var known = Set<String>()
            try await store.forEachEntry(of: metric, since: oldestRead) { entry in
                if let id = entry.serverId { known.insert(id) }
            }
            entries.removeAll { known.contains($0.id) }
        }
        return HistoryRead(
            metric: metric, entries: entries, complete: complete, holdsAll: holdsAll, knownBeforeRead: knownBeforeRead)
    }

    static func defaultName(for email: String) -> String {
        String(email.split(separator: "@").first ?? Substring(email))
    }
}

extension AccountRecord {
    /// Merges a metric's read from the server; a complete read of the heights also applies the
    /// initial-height rule.
    fileprivate mutating func merge(_ read: SyncEngine.HistoryRead, now: Date) {
        guard read.complete else {
            mergeServerHistory(read.entries, of: read.metric, complete: false, now: now)
            return
        }
        mergeServerHistory(
            read.entries, of: read.metric, complete: true, knownBeforeRead: read.knownBeforeRead, now: now)
        if read.metric == .height {
            queueInitialHeightIfNeeded(serverHasHeightEntries: !read.entries.isEmpty, now: now)
        }
    }
}
