import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The account's cached profile, outbox and history, shared safely between processes.
///
/// The layout is made so that a save reads and writes what it changes, not the whole history:
/// - `account.json` holds the profile, the server's copy, the outbox, undo and conflict bases, a
///   journal of the history changes made since the segments were written, and the names of its
///   parts: the segments' index and a summary of each metric's history (what the first frame shows),
///   each a file in `history/` (``PartFiles``);
/// - `history/<metric>-<YYYY-MM>.<n>.json` holds one metric's entries of one month; a segment file is
///   written once and replaced by a new file, never changed in place, as every part is.
///
/// A save writes `account.json`, with its change in the journal, and the summary of each metric it
/// changed. When the journal is full, the segments it touched are written as new files first, then
/// the index and `account.json` naming them (the commit), then the old files are deleted: a crash at
/// any point leaves a consistent cache.
///
/// The store keeps what it last read or wrote in memory. Each call reads `account.json` (small) and
/// decodes nothing when its bytes did not change; parts and segments are read once. Reads take no
/// lock (atomic renames make every read see a whole file); each update takes the account lock. A file
/// that cannot be read is moved aside as `<name>.corrupt-<time>`, never overwritten.
public struct JSONFileProfileStore: ProfileStore {
    /// The file's name in the account's data folder.
    public static let fileName = "account.json"
    /// The folder of history segments, in the account's data folder.
    public static let historyFolderName = "history"

    /// The account's data folder, which ``erase()`` removes.
    public let folder: URL
    public var watchedFolder: URL? { folder }
    /// The lock shared with the account's session store.
    public let lock: AccountLock
    var file: CacheFile<AccountFileV3>
    let now: @Sendable () -> Date
    let memory: Memory

    /// Keeps the cache in `folder/account.json` and `folder/history/`, guarded by `lock`; `now` names
    /// moved-aside files.
    public init(folder: URL, lock: AccountLock, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.lock = lock
        self.now = now
        self.file = CacheFile(url: self.folder.appendingPathComponent(Self.fileName, isDirectory: false), now: now)
        self.memory = Memory()
    }

    /// `folder/account.json`.
    public var fileURL: URL { file.url }

    /// `folder/history`.
    public var historyFolder: URL { folder.appendingPathComponent(Self.historyFolderName, isDirectory: true) }

    /// What one process has done to the files, for benchmarks and tests.
    public struct Counters: Sendable, Equatable {
        /// Files decoded (`account.json` counted only when its bytes changed since it was last decoded).
        public var filesDecoded = 0
        /// Files written (each an atomic replacement).
        public var filesWritten = 0
        /// Bytes written.
        public var bytesWritten = 0
        /// Parts of `account.json` decoded from their files (its index and summaries), each once.
        public var partsDecoded = 0
    }

    /// The files read and written by this store object so far.
    public var counters: Counters { memory.counters.withLock { $0 } }

    public func load() async throws -> AccountState {
        guard let data = try file.readData() else { return .empty }
        if let known = memory.snapshot(for: data) { return known.state }
        do {
            return try readWhole(data, recovering: false).state
        } catch is Unsettled {
            // Damage, or a segment replaced by another process meanwhile: read again under the lock.
            return try await lock.withLock { try current().state }
        }
    }

    public func overview() async throws -> AccountOverview {
        guard let data = try file.readData() else { return AccountOverview(full: .empty) }
        if let known = memory.snapshot(for: data) {
            return AccountOverview(
                state: known.state.with(RecentEntries(entries: known.state.history.entries)),
                summaries: known.stored.summaries, isComplete: true)
        }
        if let known = memory.head(for: data) { return known.overview }
        if let stored = memory.decoded(for: data) { return Self.overview(of: stored) }
        // The first frame's read: the account and the summaries, not the history's index.
        switch decodeAccount(data) {
        case .value(let contents):
            if let older = contents.older { return Self.overview(of: older) }
            do {
                let head = AccountHead(state: contents.state, summaries: try summaries(of: contents))
                memory.remember(head: head, bytes: data)
                return head.overview
            } catch is PartTrouble {
                // Replaced by another process meanwhile, or lost: read under the lock.
                return AccountOverview(full: try await load())
            }
        case .missing:
            return AccountOverview(full: .empty)
        case .newer(let version):
            throw file.newer(version)
        case .unreadable:
            return AccountOverview(full: try await load())
        }
    }

    /// The overview of an account read without its history (a version 1 file holds it inline).
    private static func overview(of stored: StoredAccount) -> AccountOverview {
        if let inline = stored.inlineHistory {
            var state = stored.state
            state.history = WholeHistory(entries: inline)
            return AccountOverview(full: state)
        }
        let state = stored.state.with(RecentEntries(entries: stored.summaries.values.flatMap(\.latest)))
        return AccountOverview(state: state, summaries: stored.summaries, isComplete: false)
    }

    public func update<T: Sendable>(_ change: @Sendable (inout AccountState) throws -> T) async throws -> T {
        try await lock.withLock { try updateWhole(change) }
    }

    /// ``update(_:)`` on the latest entries of each history alone, when the whole history is not in
    /// memory: `account.json` is read and written, and no segment but the months of the entries
    /// `including` names. A change that does more than add entries newer than every other of their
    /// metric and change entries in place (or one that would fill the journal) is made again on the
    /// whole state, so `change` must be a pure function of the state it is given.
    public func updateRecent<T: Sendable>(
        including wanted: [EntryLocation], _ change: @Sendable (inout RecentAccountState) throws -> T
    ) async throws -> T {
        try await lock.withLock {
            let whole: @Sendable (inout AccountState) throws -> T = { try RecentEntries.applyToAll(change, to: &$0) }
            guard let data = try file.readData(), memory.snapshot(for: data) == nil,
                let stored = try? storedAccount(data),
                stored.inlineHistory == nil, !stored.isOlderFile,
                stored.index.journal.count < HistoryIndex.journalLimit,
                let entries = try? recentEntries(of: stored, including: wanted)
            else { return try updateWhole(whole) }
            let recent = stored.state.with(entries)
            var state = recent
            let result = try change(&state)
            if state == recent { return result }
            var next = stored
            if state.history != recent.history {
                // Entries added after every entry of their metric, and entries changed in place: the
                // summaries follow from them.
                guard let done = state.history.changes(since: recent.history),
                    stored.index.journal.count + done.added.count + done.changed.count <= HistoryIndex.journalLimit,
                    var summaries = Self.summaries(stored.summaries, adding: done.added)
                else {
                    // When the latest entries were every entry (a first sync of thousands), `state`
                    // is what the change makes of the whole history: it is saved, not made again.
                    guard stored.summaries.values.allSatisfy({ $0.count == $0.latest.count }) else {
                        return try updateWhole(whole)
                    }
                    let changed = state
                    return try updateWhole { all in
                        all = changed.with(WholeHistory(entries: changed.history.entries))
                        return result
                    }
                }
                Self.replace(done.changed, in: &summaries)
                next.summaries = summaries
                next.index.journal += (done.changed + done.added).map { .put($0, previous: nil) }
            }
            next.state = state.with(WholeHistory())
            memory.remember(decoded: next, bytes: try writtenAccount(&next, over: stored))
            return result
        }
    }

    /// The latest entries of each metric in `stored`, and the entries `wanted` names, read from their
    /// months' segments.
    private func recentEntries(of stored: StoredAccount, including wanted: [EntryLocation]) throws -> RecentEntries {
        var entries = stored.summaries.values.flatMap(\.latest)
        let held = Set(entries.map(\.id))
        let missing = wanted.filter { !held.contains($0.id) }
        if !missing.isEmpty {
            let ids = Set(missing.map(\.id))
            let months = Set(missing.map { SegmentKey(metric: $0.type, at: $0.loggedAt) })
            for key in months.sorted() {
                entries += try self.entries(of: key, in: stored).filter { ids.contains($0.id) }
                let files = stored.index.segments.count { $0.key == key }
                memory.count { $0.filesDecoded += files }
            }
        }
        Self.normalize(&entries)
        return RecentEntries(entries: entries)
    }

    /// `summaries` with the entries `changed` in place where their latest entries list them.
    static func replace(_ changed: [ProgressEntry], in summaries: inout [String: HistorySummary]) {
        for entry in changed {
            guard let index = summaries[entry.type]?.latest.firstIndex(where: { $0.id == entry.id }) else { continue }
            summaries[entry.type]?.latest[index] = entry
        }
    }

    /// `account.json` (`data`) decoded with its parts, from memory when the same bytes were decoded
    /// last; `nil` when there is none; throws when it cannot be read without the lock (damaged, of a
    /// newer version, or a part replaced meanwhile).
    func storedAccount(_ data: Data) throws -> StoredAccount? {
        if let known = memory.decoded(for: data) { return known }
        switch decodeAccount(data) {
        case .value(let contents):
            let stored = try resolved(contents)
            memory.remember(decoded: stored, bytes: data)
            return stored
        case .missing: return nil
        case .newer(let version): throw file.newer(version)
        case .unreadable: throw Unsettled()
        }
    }

    /// `account.json` decoded alone (not its parts), counted, and kept for the next call that finds
    /// the same bytes (a command's overview, then its save).
    func decodeAccount(_ data: Data) -> CacheFile<AccountFileV3>.Contents {
        if let known = memory.contents(for: data) { return .value(known) }
        let contents = CacheFile<AccountFileV3>.decode(data)
        memory.count { $0.filesDecoded += 1 }
        if case .value(let value) = contents { memory.remember(contents: value, bytes: data) }
        return contents
    }

    /// `summaries` with `added` (oldest first), or `nil` when one of them is not newer than every
    /// entry of its metric.
    static func summaries(_ summaries: [String: HistorySummary], adding added: [ProgressEntry]) -> [String:
        HistorySummary]?
    {
        var summaries = summaries
        for entry in added {
            let summary = summaries[entry.type] ?? .empty
            if let last = summary.last, entry.loggedAt < last { return nil }
            summaries[entry.type] = summary.appending(entry)
        }
        return summaries
    }

    /// The body of ``update(_:)``, holding the lock.
    private func updateWhole<T: Sendable>(_ change: @Sendable (inout AccountState) throws -> T) throws -> T {
        let known = try current()
        var state = known.state
        let result = try change(&state)
        // Comparing an untouched history costs nothing (the same storage); a changed one is put in order.
        if state.history != known.state.history { Self.normalize(&state.history.entries) }
        if state != known.state || known.needsRewrite { try save(state, over: known) }
        return result
    }

    public func erase() async throws {
        try await lock.withLock {
            try CacheDirectory.remove(folder)
            memory.forget()
        }
    }

    /// The file's identity, size and modification time: every write renames a new file into place, so
    /// any write changes at least the inode.
    public func revision() async -> StoreRevision? {
        var info = stat()
        guard stat(file.url.path, &info) == 0 else { return nil }
        return StoreRevision([
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
            Int64(info.st_mtim.tv_nsec),
        ])
    }
}
