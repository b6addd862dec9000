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
    /// The server's values as last seen: what a discarded change reverts to.
    public var serverCopy: RemoteProfile?
    public var outbox: Outbox
    /// The history of every metric, local and synced (any order; see ``history(of:)``).
    public var history: History
    /// When the server last acknowledged or answered a pull.
    public var lastSyncAt: Date?
    /// When the histories were last read from the server.
    public var historyCheckedAt: Date?
    /// The recent saved changes `undo` can reverse, oldest first.
    public var undoLog: [UndoStep]
    /// Server ids of entries removed here (the latest 100): a history read that began before the
    /// removal must not bring them back.
    public var removedServerIds: [String]
    /// The recent values of each field (`name`, …, `height`; the last 20) the server acknowledged
    /// from this account: a server read that shows one (it began before a later write of ours
    /// landed) shows this account's own value, not another device's change.
    public var acknowledgedValues: [String: [String]] = [:]

    public init(
        profile: UserProfile? = nil, serverCopy: RemoteProfile? = nil, outbox: Outbox = Outbox(),
        history: History = [], lastSyncAt: Date? = nil, historyCheckedAt: Date? = nil,
        undoLog: [UndoStep] = [], removedServerIds: [String] = [], acknowledgedValues: [String: [String]] = [:]
    ) {
        self.removedServerIds = removedServerIds
        self.acknowledgedValues = acknowledgedValues
        self.profile = profile
        self.serverCopy = serverCopy
        self.outbox = outbox
        self.history = history
        self.lastSyncAt = lastSyncAt
        self.historyCheckedAt = historyCheckedAt
        self.undoLog = undoLog
    }

    /// An account with nothing cached.
    public static var empty: Self { Self() }

    /// The entries of `metric`, newest first.
    public func history(of metric: Metric) -> [ProgressEntry] {
        history.filter { $0.type == metric.type }.sorted { $0.loggedAt > $1.loggedAt }
    }

    /// Height entries, newest first.
    public var heightHistory: [ProgressEntry] { history(of: .height) }

    /// This state with `history` in place of its own.
    public func with<Other: EntryList>(_ history: Other) -> AccountRecord<Other> {
        AccountRecord<Other>(
            profile: profile, serverCopy: serverCopy, outbox: outbox, history: history, lastSyncAt: lastSyncAt,
            historyCheckedAt: historyCheckedAt, undoLog: undoLog, removedServerIds: removedServerIds,
            acknowledgedValues: acknowledgedValues)
    }

    /// Applies a metadata edit and queues one coalesced `PUT`; returns `false` when nothing changed.
    @discardableResult
    public mutating func editMetadata(_ metadata: ProfileMetadata, now: Date) -> Bool {
        guard let profile else { return false }
        let keys = metadata.changedKeys(from: profile.metadata)
        guard !keys.isEmpty else { return false }
        self.profile = profile.updatingMetadata(metadata, at: now)
        var change =
            outbox.metadata ?? MetadataChange(changeId: UUID(), revision: 0, keys: [], delivery: Delivery())
        // A field edited for the first time since it was last sent remembers the server value it was
        // edited from; an edit on top of a pending one keeps the first base.
        if let server = serverCopy?.metadata {
            for key in keys where !change.keys.contains(key) { change.bases[key] = server.value(of: key) }
        }
        change.keys.formUnion(keys)
        change.revision += 1
        change.delivery.reopen()
        outbox.metadata = change
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
        if postsProgress {
            let post = NewProgressEntry(type: entry.type, quantity: value, loggedAt: measuredAt, notes: notes)
            outbox.progress.append(
                ProgressPost(id: entry.id, entry: post, changeId: entry.id, sendAttempted: false, delivery: Delivery()))
        }
        guard metric == .height else { return (entry, false) }
        return (entry, setCurrentHeight(value, measuredAt: measuredAt, changeId: entry.id))
    }

    /// ``record(_:_:measuredAt:source:notes:postsProgress:)`` for a height.
    @discardableResult
    public mutating func recordHeight(
        _ centimetres: Double, measuredAt: Date, source: ProgressEntry.Source, notes: String? = nil,
        postsProgress: Bool = true
    ) -> Bool {
        record(.height, centimetres, measuredAt: measuredAt, source: source, notes: notes, postsProgress: postsProgress)
            .isCurrentHeight
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
        queuePhysical(height: true, biologicalSex: false, changeId: changeId)
        return true
    }

    /// Stores biological sex from the health source; queues a `PATCH` only when the value changed.
    ///
    /// - Returns: whether a `PATCH` was queued.
    @discardableResult
    public mutating func setHealthBiologicalSex(_ value: BiologicalSex, recordedAt: Date?) -> Bool {
        guard let profile else { return false }
        let previous = profile.physical.biologicalSex
        var physical = profile.physical
        physical.biologicalSex = SourcedBiologicalSex(value: value, source: .health, recordedAt: recordedAt)
        self.profile = profile.updatingPhysical(physical)
        // The server already holds this value when the previous one (health-sourced or the account's)
        // was the same; the health source only confirms it.
        guard previous?.value != value else { return false }
        queuePhysical(height: false, biologicalSex: true, changeId: UUID())
        return true
    }

    mutating func queuePhysical(height: Bool, biologicalSex: Bool, changeId: UUID) {
        var change =
            outbox.physical
            ?? PhysicalChange(
                revision: 0, includesHeight: false, includesBiologicalSex: false, changeIds: [], delivery: Delivery())
        if height && !change.includesHeight, let server = serverCopy {
            change.heightBase = server.heightCm
            change.hasHeightBase = true
        }
        change.includesHeight = change.includesHeight || height
        change.includesBiologicalSex = change.includesBiologicalSex || biologicalSex
        change.changeIds.insert(changeId)
        change.revision += 1
        change.delivery.reopen()
        outbox.physical = change
    }

    /// The physical body to send: only fields queued, biological sex only when the health source gave it.
    public var pendingPhysicalPatch: PhysicalPatch {
        guard let change = outbox.physical, let physical = profile?.physical else { return PhysicalPatch() }
        let sex = physical.biologicalSex.flatMap { $0.source == .health ? $0.value : nil }
        return PhysicalPatch(
            heightCm: change.includesHeight && !change.heightConflict ? physical.heightCm : nil,
            biologicalSex: change.includesBiologicalSex ? sex : nil)
    }
}

/// The account with its whole history.
public typealias AccountState = AccountRecord<WholeHistory>
/// The account with each metric's latest entries only.
public typealias RecentAccountState = AccountRecord<RecentEntries>

extension AccountRecord: Codable where History: Codable {}
