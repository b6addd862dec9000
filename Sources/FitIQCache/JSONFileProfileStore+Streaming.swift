import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading one metric's history a month at a time, for exports of any length.
extension JSONFileProfileStore {
    /// Calls `body` with each entry of `metric`'s history logged at or after `since` (all when `nil`),
    /// oldest first: `account.json` once, then one segment file at a time with the journal's changes to
    /// it applied, so a long history is never held whole, and no month before `since` is read. A
    /// segment replaced while it is read (another process wrote the history anew) makes the read start
    /// over, under the account lock.
    public func forEachEntry(of metric: Metric, since: Date?, _ body: (ProgressEntry) throws -> Void) async throws {
        // The last entry given, so that a read started over gives none twice.
        var given: ProgressEntry?
        let giving: (ProgressEntry) throws -> Void = { entry in
            if let since, entry.loggedAt < since { return }
            if let last = given, !Self.precedes(last, entry) { return }
            try body(entry)
            given = entry
        }
        do {
            try stream(metric, since: since, giving)
        } catch is Unsettled {
            // A segment was written anew (or damaged) while it was read: the rest from the whole state,
            // read under the lock (where damage is moved aside and named).
            let rest = try await lock.withLock { try current().state.history.filter { $0.type == metric.type } }
            try rest.forEach(giving)
        }
    }

    /// One read without the lock; throws ``Unsettled`` when the files changed under it.
    private func stream(_ metric: Metric, since: Date?, _ body: (ProgressEntry) throws -> Void) throws {
        guard let data = try file.readData() else { return }
        // The bytes a read of this process decoded last need no decoding again (a sync's overview;
        // the next metric's read, an export's).
        let stored: StoredAccount
        do {
            guard let read = try storedAccount(data) else { return }
            stored = read
        } catch is PartTrouble {
            throw Unsettled()
        }
        if let inline = stored.inlineHistory {
            var entries = inline.filter { $0.type == metric.type }
            Self.normalize(&entries)
            try entries.forEach(body)
            return
        }
        let segments = stored.index.segments.filter { $0.key.metric == metric.type }
        let journal = stored.index.journal
        var months = Set(segments.map(\.key.month))
        for change in journal { for key in change.keys where key.metric == metric.type { months.insert(key.month) } }
        let first = since.map { SegmentKey(metric: metric.type, at: $0).month }
        for month in months.sorted() where first.map({ month >= $0 }) ?? true {
            let key = SegmentKey(metric: metric.type, month: month)
            var entries = try entries(of: key, in: stored)
            let files = segments.count { $0.key == key }
            memory.count { $0.filesDecoded += files }
            Self.normalize(&entries)
            try entries.forEach(body)
        }
    }

    /// The entries of one segment as `stored` has them: its file's, with the journal's changes to it
    /// applied (an entry moved to another month leaves this one). Throws ``Unsettled`` when the file is
    /// not the one `stored` names (written anew since, or damaged).
    func entries(of key: SegmentKey, in stored: StoredAccount) throws -> [ProgressEntry] {
        var entries: [ProgressEntry] = []
        for segment in stored.index.segments where segment.key == key {
            let segmentFile = CacheFile<HistorySegmentFile>(
                url: historyFolder.appendingPathComponent(segment.file, isDirectory: false), now: now)
            switch try segmentFile.contents() {
            case .value(let read) where read.key == key: entries += read.entries
            case .newer(let version): throw segmentFile.newer(version)
            default: throw Unsettled()  // written anew since account.json was read, or damaged
            }
        }
        let changes = stored.index.journal.compactMap { change -> HistoryIndex.Change? in
            switch change {
            case .put(let entry, let previous):
                if SegmentKey(entry) == key { return change }
                return previous == key ? .remove(entry.id, from: key) : nil
            case .remove(_, let from):
                return from == key ? change : nil
            }
        }
        return Self.applying(changes, to: entries)
    }
}
