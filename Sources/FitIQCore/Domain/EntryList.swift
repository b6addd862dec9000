#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The history entries an account state holds, of every metric, in any order (see
/// ``AccountRecord/history(of:)``).
///
/// Two kinds exist, and the compiler keeps them apart: ``WholeHistory`` is every entry the account
/// has; ``RecentEntries`` is what a cold process reads without the history's bulk, each metric's
/// latest entries. A change that must see every entry (a correction, an undo, an import's duplicate
/// check) is written for ``WholeHistory`` alone; one that is right on either (a new measurement, an
/// acknowledgement) for both.
public protocol EntryList: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Sendable, Equatable
where Element == ProgressEntry, Index == Int {
    /// The entries, in no promised order.
    var entries: [ProgressEntry] { get set }
    init(entries: [ProgressEntry])
}

extension EntryList {
    public init() { self.init(entries: []) }
    public init(arrayLiteral elements: ProgressEntry...) { self.init(entries: elements) }
    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }

    public subscript(position: Int) -> ProgressEntry {
        get { entries[position] }
        set { entries[position] = newValue }
    }

    public mutating func replaceSubrange<C: Collection<ProgressEntry>>(_ range: Range<Int>, with new: C) {
        entries.replaceSubrange(range, with: new)
    }

    /// The newest entry of `metric`.
    public func latest(of metric: Metric) -> ProgressEntry? {
        lazy.filter { $0.type == metric.type }.max { $0.loggedAt < $1.loggedAt }
    }

    /// Whether `entry` is among these and the newest of its metric.
    public func isLatest(_ entry: ProgressEntry) -> Bool {
        !contains { $0.type == entry.type && $0.loggedAt > entry.loggedAt && $0.id != entry.id }
            && contains { $0.id == entry.id }
    }

    /// Gives the entry `id` the server's id; `false` when it is not among these entries.
    @discardableResult
    public mutating func markSynced(_ id: UUID, serverId: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries[index].serverId = serverId
        return true
    }
}

/// Every history entry of the account.
public struct WholeHistory: EntryList, Codable {
    public var entries: [ProgressEntry]

    public init(entries: [ProgressEntry]) {
        self.entries = entries
    }
}

extension WholeHistory {
    /// The entry of `metric` named `id`: its server id, or its local id while it is pending (any case).
    public func entry(of metric: Metric, named id: String) -> ProgressEntry? {
        let wanted = id.trimmingWhitespace()
        return first { entry in
            entry.type == metric.type
                && (entry.serverId == wanted || entry.id.uuidString.lowercased() == wanted.lowercased())
        }
    }
}

/// Each metric's latest entries (``HistorySummary/latest``), and any older ones a change asked to
/// see; never all of a long history.
public struct RecentEntries: EntryList {
    public var entries: [ProgressEntry]

    public init(entries: [ProgressEntry]) {
        self.entries = entries
    }
}

/// Where an entry is kept: enough for a store to find it without reading the whole history.
public struct EntryLocation: Sendable, Hashable {
    public var id: UUID
    public var type: String
    public var loggedAt: Date

    /// Where `entry` is kept.
    public init(_ entry: ProgressEntry) {
        (id, type, loggedAt) = (entry.id, entry.type, entry.loggedAt)
    }

    /// Where the entry `id` a post sends is kept.
    public init(id: UUID, posting entry: NewProgressEntry) {
        (self.id, type, loggedAt) = (id, entry.type, entry.loggedAt)
    }
}

/// What a change did to a list of entries: entries added, and entries changed in place (the same id,
/// metric, instant and value: a server id given, a source noted). Anything else (an entry gone, or
/// moved in time or value) is no ``EntryChanges``.
public struct EntryChanges: Sendable, Equatable {
    public var added: [ProgressEntry] = []
    public var changed: [ProgressEntry] = []
}

extension RecentEntries {
    /// The latest entries of each metric in `history` (``HistorySummary/limits(ofType:)`` of each), and the
    /// entries `including` names.
    public init(latestOf history: some Collection<ProgressEntry>, including wanted: Set<UUID> = []) {
        var entries = Dictionary(grouping: history, by: \.type).values.flatMap { HistorySummary(of: $0).latest }
        if !wanted.isEmpty {
            let held = Set(entries.map(\.id))
            entries += history.filter { wanted.contains($0.id) && !held.contains($0.id) }
        }
        self.init(entries: entries)
    }

    /// What was done to `original` to make `self`; `nil` when an entry went away or moved.
    public func changes(since original: RecentEntries) -> EntryChanges? {
        var result = EntryChanges()
        if entries == original.entries { return result }
        var before = [UUID: ProgressEntry](minimumCapacity: original.count)
        for entry in original.entries { before[entry.id] = entry }
        var kept = 0
        for entry in entries {
            guard let old = before[entry.id] else {
                result.added.append(entry)
                continue
            }
            kept += 1
            guard old != entry else { continue }
            guard old.type == entry.type, old.loggedAt == entry.loggedAt, old.quantity == entry.quantity else {
                return nil
            }
            result.changed.append(entry)
        }
        return kept == before.count ? result : nil
    }
}

extension RecentEntries {
    /// Runs `change`, written for the latest entries, on the whole `state` the way a store that keeps
    /// the history on disk does: on the latest entries (and those `including` names) first, and again
    /// on every entry when it did more than add entries newer than every other of their metric and
    /// change entries in place.
    public static func apply<T>(
        _ change: (inout RecentAccountState) throws -> T, to state: inout AccountState, including: Set<UUID> = []
    ) rethrows -> T {
        let recent = state.with(RecentEntries(latestOf: state.history, including: including))
        var changed = recent
        let result = try change(&changed)
        if let done = changed.history.changes(since: recent.history),
            done.added.allSatisfy({ entry in
                !state.history.contains { $0.type == entry.type && $0.loggedAt > entry.loggedAt }
            })
        {
            var entries = state.history.entries
            if !done.changed.isEmpty {
                let replacements = Dictionary(done.changed.map { ($0.id, $0) }) { _, last in last }
                for index in entries.indices {
                    if let replacement = replacements[entries[index].id] { entries[index] = replacement }
                }
            }
            state = changed.with(WholeHistory(entries: entries + done.added))
            return result
        }
        return try applyToAll(change, to: &state)
    }

    /// Runs `change`, written for the latest entries, with every entry of `state`.
    public static func applyToAll<T>(_ change: (inout RecentAccountState) throws -> T, to state: inout AccountState)
        rethrows -> T
    {
        var all = state.with(RecentEntries(entries: state.history.entries))
        let result = try change(&all)
        state = all.with(WholeHistory(entries: all.history.entries))
        return result
    }
}
