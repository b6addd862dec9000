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

/// The parts `account.json` names (``PartFiles``): the history's index and each metric's summary, each
/// a file written once under its own name, read once by a process and remembered by that name.
extension JSONFileProfileStore {
    /// A part named by `account.json` is missing, damaged or of another kind: replaced by another
    /// process since the file was read, or lost.
    struct PartTrouble: Error {
        var name: String
        /// Why it cannot be read, when it exists.
        var reason: String?
    }

    /// The account `contents` holds, with its index and summaries read from their files (an older
    /// file holds them itself).
    func resolved(_ contents: AccountFileContents) throws -> StoredAccount {
        if let older = contents.older { return older }
        var stored = Self.withoutParts(contents)
        stored.index.segments = try segments(of: contents)
        stored.summaries = try summaries(of: contents)
        return stored
    }

    /// The account `contents` holds, without the parts it names.
    static func withoutParts(_ contents: AccountFileContents) -> StoredAccount {
        StoredAccount(
            state: contents.state,
            index: HistoryIndex(segments: [], journal: contents.journal, nextGeneration: contents.nextGeneration),
            summaries: [:], files: contents.files)
    }

    /// The segments the index `contents` names lists.
    func segments(of contents: AccountFileContents) throws -> [HistoryIndex.Segment] {
        if let older = contents.older { return older.index.segments }
        return try contents.files.index.map(segments(in:)) ?? []
    }

    /// The summaries `contents` names, or holds.
    func summaries(of contents: AccountFileContents) throws -> [String: HistorySummary] {
        if let older = contents.older { return older.summaries }
        var summaries: [String: HistorySummary] = [:]
        for (type, name) in contents.files.summaries {
            if let known = memory.part(named: name), case .summary(let summary) = known {
                summaries[type] = summary
                continue
            }
            let read = try part(named: name, as: HistorySummaryFile.self)
            guard read.type == type else {
                throw PartTrouble(name: name, reason: "it holds the summary of \(read.type)")
            }
            memory.remember(part: .summary(read.summary), named: name)
            summaries[type] = read.summary
        }
        return summaries
    }

    /// The segments the index file `name` lists.
    private func segments(in name: String) throws -> [HistoryIndex.Segment] {
        if let known = memory.part(named: name), case .index(let segments) = known { return segments }
        let segments = try part(named: name, as: HistoryIndexFile.self)
        memory.remember(part: .index(segments), named: name)
        return segments
    }

    /// The value of the part file `name`, counted.
    private func part<Format: VersionedFileFormat>(named name: String, as format: Format.Type) throws -> Format.Value {
        let partFile = CacheFile<Format>(url: historyFolder.appendingPathComponent(name, isDirectory: false), now: now)
        switch try partFile.contents() {
        case .value(let value):
            memory.count { $0.partsDecoded += 1 }
            return value
        case .newer(let version): throw partFile.newer(version)
        case .missing: throw PartTrouble(name: name, reason: nil)
        case .unreadable(let reason): throw PartTrouble(name: name, reason: reason)
        }
    }

    /// Moves the damaged part `trouble` names aside (holding the lock), so that the next look finds it
    /// missing and the cache is written anew; returns the error naming it, or `nil` when it is just missing.
    func moveAside(_ trouble: PartTrouble) -> CacheError? {
        guard let reason = trouble.reason else { return nil }
        let partFile = CacheFile<HistoryIndexFile>(
            url: historyFolder.appendingPathComponent(trouble.name, isDirectory: false), now: now)
        return partFile.moveAside(reason: reason)
    }

    /// Writes the parts of `stored` that differ from `previous`'s (all of them when `previous` named no
    /// files: a file of an older version, or a part lost), each as a new file, then `account.json`
    /// naming them (the commit), then deletes the files no longer named. `stored` takes the names.
    func writtenAccount(_ stored: inout StoredAccount, over previous: StoredAccount) throws -> Data {
        var files = previous.files
        var generation = stored.index.nextGeneration
        var parts: [(file: AtomicFile, data: Data)] = []
        func add(_ name: String, _ data: Data, _ part: Part) {
            let url = historyFolder.appendingPathComponent(name, isDirectory: false)
            parts.append((AtomicFile(url: url, permissions: 0o600), data))
            memory.remember(part: part, named: name)
        }
        if stored.index.segments.isEmpty {
            files.index = nil
        } else if files.index == nil || stored.index.segments != previous.index.segments {
            let name = HistoryIndexFile.fileName(generation: generation)
            generation += 1
            add(name, try CacheFile<HistoryIndexFile>.encode(stored.index.segments), .index(stored.index.segments))
            files.index = name
        }
        for type in files.summaries.keys where stored.summaries[type] == nil { files.summaries[type] = nil }
        for (type, summary) in stored.summaries.sorted(by: { $0.key < $1.key })
        where files.summaries[type] == nil || previous.summaries[type] != summary {
            let name = HistorySummaryFile.fileName(type: type, generation: generation)
            generation += 1
            add(name, try CacheFile<HistorySummaryFile>.encode((type, summary)), .summary(summary))
            files.summaries[type] = name
        }
        stored.index.nextGeneration = generation
        stored.files = files
        // Together: one look for stale temporary files and one flush of the folder.
        try AtomicFile.write(parts)
        for part in parts { _ = counted(part.data) }
        let contents = AccountFileContents(
            state: stored.state, journal: stored.index.journal, nextGeneration: generation, files: files, older: nil)
        let data = counted(
            try file.write { try memory.withEncodedPosts { try AccountFileV3.encode(contents, reusing: &$0) } })
        // A process that read the file before this one may still look for these: it finds them gone
        // and reads again (``Unsettled``).
        for name in previous.files.names.subtracting(files.names) {
            unlink(historyFolder.appendingPathComponent(name, isDirectory: false).path)
        }
        return data
    }
}
