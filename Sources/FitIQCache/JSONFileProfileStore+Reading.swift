import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reading the cache: `account.json`, its journal and the month segments it names, remembered in memory.
extension JSONFileProfileStore {
    /// The state on disk, from memory when `account.json` did not change. Call it holding the lock.
    func current() throws -> Snapshot {
        guard let data = try file.readData() else {
            // Not remembered: an empty file is damage, not this.
            return Snapshot(
                bytes: Data(), stored: StoredAccount(state: .empty, index: HistoryIndex(), summaries: [:]),
                state: .empty, needsRewrite: false)
        }
        if let known = memory.snapshot(for: data) { return known }
        return try readWhole(data, recovering: true)
    }

    /// Decodes `account.json` (`data`) and the segments it names, and remembers the result.
    ///
    /// With `recovering` (under the lock), an unreadable file is moved aside and reported, and a
    /// missing segment is taken as lost: the history is read from the server again by the next sync.
    /// Without it, any such trouble throws ``Unsettled`` for the caller to retry under the lock.
    func readWhole(_ data: Data, recovering: Bool) throws -> Snapshot {
        var stored: StoredAccount
        var needsRewrite = false
        var summariesLost = false
        switch decodeAccount(data) {
        case .missing: stored = StoredAccount(state: .empty, index: HistoryIndex(), summaries: [:])
        case .value(let contents):
            if let known = memory.decoded(for: data) {
                stored = known
            } else if let older = contents.older {
                stored = older
            } else {
                // A part missing was lost (moved aside by an earlier read): every part is written
                // anew by the next save; without the index, the segments too, and the history is read
                // from the server again.
                stored = Self.withoutParts(contents)
                do {
                    stored.index.segments = try segments(of: contents)
                } catch let trouble as PartTrouble {
                    guard recovering else { throw Unsettled() }
                    if let error = moveAside(trouble) { throw error }
                    (needsRewrite, stored.files) = (true, PartFiles())
                    stored.state.server.historyCheckedAt = nil
                }
                do {
                    stored.summaries = try summaries(of: contents)
                } catch let trouble as PartTrouble {
                    guard recovering else { throw Unsettled() }
                    if let error = moveAside(trouble) { throw error }
                    (summariesLost, stored.files) = (true, PartFiles())
                }
            }
        case .newer(let version): throw file.newer(version)
        case .unreadable(let reason):
            guard recovering else { throw Unsettled() }
            throw file.moveAside(reason: reason)
        }
        var state = stored.state
        needsRewrite = needsRewrite || stored.inlineHistory != nil || stored.isOlderFile
        if let inline = stored.inlineHistory {
            state.history.entries = inline
        } else if let previous = memory.snapshot(), previous.extends(to: stored) {
            // Another process saved changes on top of what this one holds: apply the journal's new part.
            state.history.entries = Self.applying(
                Array(stored.index.journal.dropFirst(previous.stored.index.journal.count)),
                to: previous.state.history.entries)
        } else {
            var entries: [ProgressEntry] = []
            for segment in stored.index.segments {
                let segmentFile = CacheFile<HistorySegmentFile>(
                    url: historyFolder.appendingPathComponent(segment.file, isDirectory: false), now: now)
                switch try segmentFile.contents() {
                case .value(let read) where read.key == segment.key:
                    memory.count { $0.filesDecoded += 1 }
                    entries += read.entries
                case .value:
                    guard recovering else { throw Unsettled() }
                    throw segmentFile.moveAside(reason: "it holds another segment than \(segment.key.description)")
                case .unreadable(let reason):
                    guard recovering else { throw Unsettled() }
                    throw segmentFile.moveAside(reason: reason)
                case .newer(let version):
                    throw segmentFile.newer(version)
                case .missing:
                    guard recovering else { throw Unsettled() }
                    // Lost (moved aside by an earlier read): the server has the synced entries.
                    needsRewrite = true
                    state.server.historyCheckedAt = nil
                }
            }
            state.history.entries = Self.applying(stored.index.journal, to: entries)
        }
        Self.normalize(&state.history.entries)
        if summariesLost || needsRewrite {
            stored.summaries = Dictionary(grouping: state.history.entries, by: \.type).mapValues {
                HistorySummary(of: $0)
            }
        }
        let snapshot = Snapshot(bytes: data, stored: stored, state: state, needsRewrite: needsRewrite)
        memory.remember(snapshot)
        return snapshot
    }

    /// `entries` with the journal's changes applied in order.
    static func applying(_ journal: [HistoryIndex.Change], to entries: [ProgressEntry]) -> [ProgressEntry] {
        guard !journal.isEmpty else { return entries }
        var entries = entries
        var position = [UUID: Int](minimumCapacity: entries.count)
        for (index, entry) in entries.enumerated() { position[entry.id] = index }
        var removed = Set<UUID>()
        for change in journal {
            switch change {
            case .put(let entry, _):
                removed.remove(entry.id)
                if let index = position[entry.id] {
                    entries[index] = entry
                } else {
                    position[entry.id] = entries.count
                    entries.append(entry)
                }
            case .remove(let id, _):
                if position[id] != nil { removed.insert(id) }
            }
        }
        return removed.isEmpty ? entries : entries.filter { !removed.contains($0.id) }
    }

    /// The history's one order: oldest first, then by id, so every process lists it alike.
    static func normalize(_ history: inout [ProgressEntry]) {
        // Already in order after almost every change (an entry appended, one replaced): one pass.
        var inOrder = true
        for index in history.indices.dropFirst() where !precedes(history[index - 1], history[index]) {
            inOrder = false
            break
        }
        if !inOrder { history.sort(by: precedes) }
    }

    static func precedes(_ lhs: ProgressEntry, _ rhs: ProgressEntry) -> Bool {
        if lhs.loggedAt != rhs.loggedAt { return lhs.loggedAt < rhs.loggedAt }
        return lhs.id.uuidString < rhs.id.uuidString
    }
}
