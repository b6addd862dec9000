import FitIQCore

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

/// Writing the cache: the journal, the month segments when it is full, and the files no longer named.
extension JSONFileProfileStore {
    /// Writes `state` over what `known` read: the journal grows by the history's changes, or the
    /// segments are written anew when it is full (or after an upgrade or a lost segment, or when an
    /// empty history is filled).
    func save(_ state: AccountState, over known: Snapshot) throws {
        var stored = known.stored
        stored.state = state
        stored.state.history = []
        stored.inlineHistory = nil
        stored.isOlderFile = false
        var obsolete: [String] = []
        // An empty history given more entries than the journal holds (a first sync of thousands) is
        // written as a rewrite is: every segment, without listing each entry as a change first.
        let fills =
            known.state.history.entries.isEmpty
            && stored.index.journal.count + state.history.entries.count > HistoryIndex.journalLimit
        var folded = known.needsRewrite || fills
        if folded {
            let previous = Set(stored.index.segments.map(\.file))
            stored.index.segments = []
            stored.index.journal = []
            try writeSegments(nil, of: state.history.entries, into: &stored.index)
            stored.summaries = Dictionary(grouping: state.history.entries, by: \.type).mapValues {
                HistorySummary(of: $0)
            }
            obsolete = Array(previous.subtracting(stored.index.segments.map(\.file)))
        } else {
            let changes = Self.changes(from: known.state.history.entries, to: state.history.entries)
            if !changes.isEmpty {
                stored.index.journal += changes
                let metrics = Set(changes.flatMap(\.keys).map(\.metric))
                for metric in metrics {
                    let entries = state.history.filter { $0.type == metric }
                    stored.summaries[metric] = entries.isEmpty ? nil : HistorySummary(of: entries)
                }
                if stored.index.journal.count > HistoryIndex.journalLimit {
                    let keys = Set(stored.index.journal.flatMap(\.keys))
                    let previous = Set(stored.index.segments.map(\.file))
                    stored.index.journal = []
                    try writeSegments(keys, of: state.history.entries, into: &stored.index)
                    obsolete = Array(previous.subtracting(stored.index.segments.map(\.file)))
                    folded = true
                }
            }
        }
        let data = try writtenAccount(&stored, over: known.stored)
        if folded {
            // The segments replaced, and any left by a cache that was moved aside or lost.
            let kept = Set(stored.index.segments.map(\.file)).union(stored.files.names)
            for name in Set(obsolete).union(Self.segmentFiles(in: historyFolder)) where !kept.contains(name) {
                unlink(historyFolder.appendingPathComponent(name, isDirectory: false).path)
            }
        }
        memory.remember(Snapshot(bytes: data, stored: stored, state: state, needsRewrite: false))
    }

    /// Writes `value` to `file`, counted; returns the bytes written.
    @discardableResult
    func written<Format>(_ value: Format.Value, to file: CacheFile<Format>) throws -> Data {
        counted(try file.write(value))
    }

    func counted(_ data: Data) -> Data {
        memory.count {
            $0.filesWritten += 1
            $0.bytesWritten += data.count
        }
        return data
    }

    /// Writes the segments `keys` (every month of `history` when `nil`) from `history` as new files and
    /// lists them in `index` in place of the old ones; a segment left empty is dropped.
    func writeSegments(_ keys: Set<SegmentKey>?, of history: [ProgressEntry], into index: inout HistoryIndex)
        throws
    {
        let grouped = Self.segments(of: history)
        let keys = keys ?? Set(grouped.keys)
        var segments = index.segments.filter { !keys.contains($0.key) }
        var files: [(file: CacheFile<HistorySegmentFile>, value: HistorySegment)] = []
        for key in keys.sorted() {
            guard let entries = grouped[key], !entries.isEmpty else { continue }
            let name = key.fileName(generation: index.nextGeneration)
            index.nextGeneration += 1
            let segmentFile = CacheFile<HistorySegmentFile>(
                url: historyFolder.appendingPathComponent(name, isDirectory: false), now: now)
            files.append((segmentFile, HistorySegment(key: key, entries: entries)))
            segments.append(HistoryIndex.Segment(key: key, file: name, count: entries.count))
        }
        // Together: one look for stale temporary files and one flush of the folder, not one a segment.
        for data in try CacheFile.write(files) { _ = counted(data) }
        index.segments = segments.sorted { $0.key < $1.key }
    }

    /// The entries of `history` by the month segment each belongs in, in their order. An entry of the
    /// same metric and month as the one before it (most of them: the history is in order) takes its
    /// key without working out its month again.
    static func segments(of history: [ProgressEntry]) -> [SegmentKey: [ProgressEntry]] {
        var grouped: [SegmentKey: [ProgressEntry]] = [:]
        var run: [ProgressEntry] = []
        var runKey: SegmentKey?
        var runMonth: Range<Date> = Date.distantPast..<Date.distantPast
        for entry in history {
            if entry.type == runKey?.metric, runMonth.contains(entry.loggedAt) {
                run.append(entry)
                continue
            }
            if let runKey { grouped[runKey, default: []] += run }
            let key = SegmentKey(metric: entry.type, at: entry.loggedAt)
            (runKey, runMonth, run) = (key, SegmentKey.span(of: entry.type, containing: entry.loggedAt), [entry])
        }
        if let runKey { grouped[runKey, default: []] += run }
        return grouped
    }

    /// The names of the segment files in `folder`: neither temporary files nor files moved aside.
    static func segmentFiles(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && !$0.contains(".corrupt-") }
    }

    /// The journal entries that turn `old` into `new` (both in the history's order).
    ///
    /// Only the stretch between their common beginning and common end is compared by id: adding,
    /// replacing or removing a few entries costs a scan, not a table of the whole history.
    static func changes(from old: [ProgressEntry], to new: [ProgressEntry]) -> [HistoryIndex.Change] {
        if old == new { return [] }
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let before = old[prefix..<(old.count - suffix)]
        let after = new[prefix..<(new.count - suffix)]
        var previous = [UUID: ProgressEntry](minimumCapacity: before.count)
        for entry in before { previous[entry.id] = entry }
        var changes: [HistoryIndex.Change] = []
        for entry in after {
            if let earlier = previous.removeValue(forKey: entry.id) {
                if earlier == entry { continue }
                let from = SegmentKey(earlier)
                changes.append(.put(entry, previous: from == SegmentKey(entry) ? nil : from))
            } else {
                changes.append(.put(entry, previous: nil))
            }
        }
        for entry in before where previous[entry.id] != nil {
            changes.append(.remove(entry.id, from: SegmentKey(entry)))
        }
        return changes
    }
}
