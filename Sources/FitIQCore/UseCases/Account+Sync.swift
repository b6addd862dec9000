#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `status` reports about an account.
public struct AccountStatus: Sendable, Equatable {
    public var server: String
    public var email: String
    public var signedIn: Bool
    public var lastSyncAt: Date?
    public var pendingChanges: Int
    public var rejectedChanges: Int
    /// Every change still in the outbox, with the server's message for rejected ones.
    public var changes: [PendingChange]
    /// Fields edited here that another device changed on the server since: held until resolved.
    public var conflicts: [FieldConflict] = []
}

/// Use cases on syncing: sync now, status, retry and discard.
extension Account {
    /// Sends pending changes, then reads the server's copy; waits for backoffs until `deadline`.
    @discardableResult
    public func syncNow(until deadline: Date? = nil) async throws -> SyncReport {
        try await store.updateRecent { $0.outbox.retryPendingNow() }
        let checked = try await engine.checkForConflicts()
        try await engine.drain(until: deadline, checkFirst: !checked)
        let outbox = try await engine.pullAll(full: false)
        // The pull or the history may queue work (a health value to push again, the initial height).
        let report = try await engine.drain(until: deadline)
        guard outbox.physical?.includesBiologicalSex == true, report.isSynced else { return report }
        // A biological sex was sent again because the server did not hold the health source's value:
        // "synced" only once a second read shows the server has it (a read that still differs queues it
        // again, and the report says it is pending).
        try await engine.pull()
        return SyncReport(try await store.overview().state)
    }

    /// How long a delivery may take (``deliver()``), on the account's clock; a sync that nobody asked to
    /// wait longer keeps to it too (`sync` without `--wait`, plain mode's `sync`, the editor's rounds).
    public static let deliveryDeadline = Duration.seconds(15)

    /// Delivers what was just saved: the one way out for the editor, plain mode and every command. It
    /// sends pending changes and reads nothing else: a `PUT` or `PATCH` that is acknowledged leaves the
    /// server's copy in the cache, so no `GET` follows it, and a profile save reads no history. A change
    /// made from a server value is checked for conflicts right before it goes out.
    ///
    /// It keeps to ``deliveryDeadline`` on the account's clock: timeouts, 429 and 5xx answers are tried
    /// again within it, nothing new starts after it, and an attempt that finds no way to the server
    /// (refused, an unknown name, no route) ends it at once, the changes kept with that reason
    /// (``OfflineRule/stop``).
    @discardableResult
    public func deliver() async throws -> SyncReport {
        try await push(until: environment.clock.date(after: Self.deliveryDeadline))
    }

    /// ``deliver()`` with a deadline of the caller's (`nil`: it stops at the first wait), for tests.
    @discardableResult
    func push(until deadline: Date? = nil) async throws -> SyncReport {
        try await engine.drain(until: deadline, checkFirst: true, whenOffline: .stop)
    }

    /// Where the account stands, from the cache alone.
    public func status() async throws -> AccountStatus {
        // Nothing of it is in the history: the overview reads none.
        let state = try await store.overview().state
        let signedIn = try await sessions.load()?.isSignedIn ?? false
        return AccountStatus(
            server: key.server, email: email, signedIn: signedIn, lastSyncAt: state.server.lastSyncAt,
            pendingChanges: state.pending.count, rejectedChanges: state.pending.rejectedCount,
            changes: state.pending.changes(
                timeZone: environment.timeZone, now: environment.now(), isRunning: environment.isRunning),
            conflicts: state.pending.conflicts)
    }

    /// Settles a conflict on `field` (``ChangeRequest/resolveConflict(field:keepLocal:)``); with
    /// `sending`, the same write claims what goes out first.
    ///
    /// - Returns: whether `field` was conflicted.
    func resolveConflict(_ field: String, keepLocal: Bool, sending: Bool = false) async throws -> Bool {
        try await save(sending: sending) { $0.resolve(field, keepLocal: keepLocal) }
    }

    /// Sends a rejected or backing-off change again at the next chance.
    public func retry(_ item: OutboxItemID) async throws {
        try await store.updateRecent { $0.outbox.retry(item) }
    }

    /// Drops a change and shows the server's value again.
    public func discard(_ item: OutboxItemID) async throws {
        try await store.update { $0.discard(item) }
    }

    /// Sends every change the server refused again at the next chance.
    ///
    /// - Returns: the changes sent again.
    @discardableResult
    public func retryRejected() async throws -> [PendingChange] {
        let timeZone = environment.timeZone
        return try await store.updateRecent { state in
            let rejected = state.pending.changes(timeZone: timeZone).filter { $0.rejection != nil }
            rejected.forEach { state.outbox.retry($0.item) }
            return rejected
        }
    }

    /// Drops every change the server refused, showing the server's values again on this machine.
    ///
    /// - Returns: the changes dropped.
    @discardableResult
    public func discardRejected() async throws -> [PendingChange] {
        let timeZone = environment.timeZone
        return try await store.update { state in
            let rejected = state.pending.changes(timeZone: timeZone).filter { $0.rejection != nil }
            rejected.forEach { state.discard($0.item) }
            return rejected
        }
    }
}

extension Account {
    /// Applies `change` to the latest entries (``ProfileStore/updateRecent``). With `sending`, the same
    /// write claims what the engine's next drain sends first (``SyncEngine/save(claiming:)``): a save
    /// sent at once writes the cache once before its request and once after its answer.
    func save<T: Sendable>(sending: Bool, _ change: @escaping @Sendable (inout RecentAccountState) throws -> T)
        async throws -> T
    {
        guard sending else { return try await store.updateRecent(change) }
        return try await engine.save(claiming: change)
    }
}
