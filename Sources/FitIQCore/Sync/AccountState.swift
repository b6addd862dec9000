#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything cached for one account: profile, outbox, the histories of every metric and sync times.
///
/// Every change is a pure mutation of this value; the store applies it under the account lock to
/// the freshest copy on disk, so processes sharing the account never lose each other's edits.
///
/// `History` says how much of the history it holds: ``AccountState`` holds all of it,
/// ``RecentAccountState`` only each metric's latest entries (what a cold process reads cheaply).
public struct AccountRecord<History: EntryList>: Sendable, Equatable {
    public var profile: UserProfile?
    /// The server's side as last seen: its profile, what it acknowledged, what was removed here.
    public var server: ServerRecord
    public var outbox: Outbox
    /// The history of every metric, local and synced (any order; see ``history(of:)``).
    public var history: History
    public var undoLog: UndoLog

    public init(
        profile: UserProfile? = nil, server: ServerRecord = ServerRecord(), outbox: Outbox = Outbox(),
        history: History = [], undoLog: UndoLog = UndoLog()
    ) {
        self.profile = profile
        self.server = server
        self.outbox = outbox
        self.history = history
        self.undoLog = undoLog
    }

    /// An account with nothing cached.
    public static var empty: Self { Self() }

    /// The entries of `metric`, newest first.
    public func history(of metric: Metric) -> [ProgressEntry] {
        history.filter { $0.type == metric.type }.sorted { $0.loggedAt > $1.loggedAt }
    }

    /// This state with `history` in place of its own.
    public func with<Other: EntryList>(_ history: Other) -> AccountRecord<Other> {
        AccountRecord<Other>(
            profile: profile, server: server, outbox: outbox, history: history, undoLog: undoLog)
    }

    /// Applies a metadata edit and queues one coalesced `PUT`; returns `false` when nothing changed.
    @discardableResult
    public mutating func editMetadata(_ metadata: ProfileMetadata, now: Date) -> Bool {
        guard let profile else { return false }
        let keys = metadata.changedKeys(from: profile.metadata)
        guard !keys.isEmpty else { return false }
        self.profile = profile.updatingMetadata(metadata, at: now)
        outbox.queueMetadata(keys, server: server.copy?.metadata)
        return true
    }

    /// Records a measurement of `metric` (`value` in its unit): a history entry and its
    /// `POST /progress`; a height that is the newest measurement also becomes the current height, with
    /// a coalesced `PATCH`.
    ///
    /// - Parameter postsProgress: `false` for a value the server's history has already.
    /// - Returns: the entry, and whether it became the current height.
    @discardableResult
    public mutating func record(
        _ metric: Metric, _ value: Double, measuredAt: Date, source: ProgressEntry.Source, notes: String? = nil,
        postsProgress: Bool = true
    ) -> (entry: ProgressEntry, isCurrentHeight: Bool) {
        let entry = ProgressEntry(
            type: metric.type, quantity: value, loggedAt: measuredAt, notes: notes, source: source)
        history.append(entry)
        if postsProgress { outbox.post(entry) }
        guard metric == .height else { return (entry, false) }
        return (entry, setCurrentHeight(value, measuredAt: measuredAt, changeId: entry.id))
    }

    /// Makes `centimetres` the current height if it is at least as new as the current height and every
    /// history entry; queues the `PATCH`.
    @discardableResult
    public mutating func setCurrentHeight(_ centimetres: Double, measuredAt: Date, changeId: UUID) -> Bool {
        guard let profile else { return false }
        if let current = profile.physical.heightMeasuredAt, measuredAt < current { return false }
        if history.contains(where: { $0.type == ProgressEntry.heightType && $0.loggedAt > measuredAt }) { return false }
        var physical = profile.physical
        physical.heightCm = centimetres
        physical.heightMeasuredAt = measuredAt
        self.profile = profile.updatingPhysical(physical)
        outbox.queuePhysical(height: true, biologicalSex: false, changeId: changeId, server: server.copy)
        return true
    }
}

/// The account with its whole history.
public typealias AccountState = AccountRecord<WholeHistory>
/// The account with each metric's latest entries only.
public typealias RecentAccountState = AccountRecord<RecentEntries>

extension AccountRecord: Codable where History: Codable {}
