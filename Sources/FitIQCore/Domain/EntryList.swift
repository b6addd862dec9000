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

/// Each metric's latest entries (``HistorySummary/latest``), and any older ones a change asked to
/// see; never all of a long history.
public struct RecentEntries: EntryList {
    public var entries: [ProgressEntry]

    public init(entries: [ProgressEntry]) {
        self.entries = entries
    }
}

extension RecentEntries {
    /// The latest entries of each metric in `history` (``HistorySummary/latestLimit`` of each).
    public init(latestOf history: some Collection<ProgressEntry>) {
        self.init(entries: Dictionary(grouping: history, by: \.type).values.flatMap { HistorySummary(of: $0).latest })
    }

    /// What `self` is with entries added after `original`, when that is all that happened: the added
    /// entries, in order. `nil` when an entry of `original` changed or went, or the order differs.
    public func added(since original: RecentEntries) -> ArraySlice<ProgressEntry>? {
        guard entries.starts(with: original.entries) else { return nil }
        return entries.dropFirst(original.entries.count)
    }
}

extension AccountState {
    /// Runs `change`, written for the latest entries, on this whole state the way a store that keeps
    /// the history on disk does: on the latest entries first, and again on every entry when it did
    /// more than add entries newer than every other of their metric.
    public mutating func applyRecent<T>(_ change: (inout RecentAccountState) throws -> T) rethrows -> T {
        let recent = with(RecentEntries(latestOf: history))
        var changed = recent
        let result = try change(&changed)
        if let added = changed.history.added(since: recent.history),
            added.allSatisfy({ entry in !history.contains { $0.type == entry.type && $0.loggedAt > entry.loggedAt } })
        {
            self = changed.with(WholeHistory(entries: history.entries + added))
            return result
        }
        return try applyToAll(change)
    }

    /// Runs `change`, written for the latest entries, with every entry.
    public mutating func applyToAll<T>(_ change: (inout RecentAccountState) throws -> T) rethrows -> T {
        var all = with(RecentEntries(entries: history.entries))
        let result = try change(&all)
        self = all.with(WholeHistory(entries: all.history.entries))
        return result
    }
}
