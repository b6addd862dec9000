import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files beside `account.json` that hold what does not change with every save: the list of
/// history segments, and each metric's summary. Each is written once under a name of its own and
/// replaced by a new file, never changed in place, so a save writes only the parts it changed and a
/// reader never sees half of one.
struct PartFiles: Sendable, Equatable {
    /// The index of the history's segments, in the history folder; `nil` while there are none.
    var index: String?
    /// Each metric's summary file, in the history folder, by progress type.
    var summaries: [String: String] = [:]

    /// Every file named.
    var names: Set<String> { Set(summaries.values).union(index.map { [$0] } ?? []) }
}

/// `account.json` as read, before the parts it names are read: schema version 3 names them; an older
/// version holds them inline (``older``).
struct AccountFileContents: Sendable, Equatable {
    /// The account; its `history` is always empty here.
    var state: AccountState
    var journal: [HistoryIndex.Change]
    var nextGeneration: Int
    var files: PartFiles
    /// A file of schema version 1 or 2, read whole: there is nothing beside it to read.
    var older: StoredAccount?
}

/// `account.json`, schema version 3: `{"history": {"index": "index.7.json", "journal": […],
/// "nextGeneration": 9}, "schemaVersion": 3, "state": {…}, "summaries": {"weight": "summary-weight.8.json"}}`.
///
/// What a save changes (the profile, the outbox, the journal of history changes) stays in this file;
/// what grows with the history (the segments' index, a summary of 48 entries and 480 points per body
/// metric) lives in the files it names, written only when they change. A save of a profile edit
/// writes this file alone, a logged weight this file and the weight's summary.
struct AccountFileV3: VersionedFileFormat {
    static let schemaVersion = 3
    static var isIndented: Bool { false }
    var schemaVersion: Int
    var state: AccountFile.StateV1
    var history: HistoryV3
    var summaries: [String: String]

    struct HistoryV3: Codable, Sendable {
        var index: String?
        var journal: [AccountFileV2.ChangeV2]
        var nextGeneration: Int
    }

    init(value: AccountFileContents) {
        schemaVersion = Self.schemaVersion
        var state = value.state
        state.history = []
        self.state = AccountFile.StateV1(state)
        history = HistoryV3(
            index: value.files.index, journal: value.journal.map(AccountFileV2.ChangeV2.init),
            nextGeneration: value.nextGeneration)
        summaries = value.files.summaries
    }

    var value: AccountFileContents {
        get throws {
            for name in summaries.values + (history.index.map { [$0] } ?? []) where !Self.isPartName(name) {
                throw AccountFile.invalid("history", name)
            }
            return AccountFileContents(
                state: try state.domain(), journal: try history.journal.map { try $0.domain() },
                nextGeneration: history.nextGeneration,
                files: PartFiles(index: history.index, summaries: summaries), older: nil)
        }
    }

    /// Whether `name` is a file's name in the history folder (a name that leads elsewhere is damage).
    static func isPartName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && name.hasSuffix(".json")
    }

    static func decodeOlder(version: Int, from data: Data, with decoder: JSONDecoder) throws -> AccountFileContents? {
        var stored: StoredAccount
        if version == AccountFileV2.schemaVersion {
            stored = try decoder.decode(AccountFileV2.self, from: data).value
        } else if let older = try AccountFileV2.decodeOlder(version: version, from: data, with: decoder) {
            stored = older
        } else {
            return nil
        }
        // Written anew by the first save, its summaries made again from the whole history (those of
        // an older build keep no recent points), its parts beside it.
        stored.isOlderFile = true
        return AccountFileContents(
            state: stored.state, journal: stored.index.journal, nextGeneration: stored.index.nextGeneration,
            files: PartFiles(), older: stored)
    }
}

extension AccountFileV3 {
    /// What the last write of `account.json` encoded of its queued posts: a batch's claim or answer
    /// changes a few of the thousands an import queues, and each is encoded once while it stays. The
    /// posts' bytes are the file's own (no copy of them is kept), found by each post's range.
    struct EncodedPosts: Sendable {
        /// The file as written.
        var bytes = Data()
        /// Each queued post as encoded, with where its JSON stands in ``bytes``.
        var posts: [(post: ProgressPost, range: Range<Int>)] = []
        /// A post's place in ``posts``, by id.
        var places: [UUID: Int] = [:]

        /// The JSON of `post` as it was last encoded, if it has not changed since.
        func json(of post: ProgressPost) -> Data? {
            guard let place = places[post.id], posts[place].post == post else { return nil }
            return bytes[posts[place].range]
        }
    }

    /// `value` encoded as ``CacheFile`` encodes it (compact, keys sorted), byte for byte, reusing the
    /// posts of `encoded` that did not change; `encoded` becomes this file's.
    static func encode(_ value: AccountFileContents, reusing encoded: inout EncodedPosts?) throws -> Data {
        var file = AccountFileV3(value: value)
        let encoder = CacheFileDecoding.compactEncoder
        let known = encoded ?? EncodedPosts()
        let queued = value.state.outbox.progress
        // The queued posts go into the state's `"progress":[]` (the only place those bytes can stand:
        // in a string the quotes are escaped), each straight into the file's bytes (an import queues
        // thousands: no list of them is built and copied again).
        file.state.outbox.progress = []
        let stateJSON = try encoder.encode(file.state)
        let history = try encoder.encode(file.history)
        let summaries = try encoder.encode(file.summaries)
        let empty = queued.isEmpty ? nil : stateJSON.firstRange(of: Data(#""progress":[]"#.utf8))
        // The keys in the order the encoder sorts them: history, schemaVersion, state, summaries.
        var data = Data()
        // Room for the known posts at their size and a new one at the known ones' mean (or 300 bytes).
        let knownBytes = known.posts.reduce(0) { $0 + $1.range.count }
        let meanPost = known.posts.isEmpty ? 300 : knownBytes / known.posts.count + 1
        data.reserveCapacity(history.count + stateJSON.count + summaries.count + 64 + queued.count * (meanPost + 1))
        data.append(contentsOf: #"{"history":"#.utf8)
        data.append(history)
        data.append(contentsOf: #","schemaVersion":"#.utf8)
        data.append(contentsOf: String(schemaVersion).utf8)
        data.append(contentsOf: #","state":"#.utf8)
        var posts: [(post: ProgressPost, range: Range<Int>)] = []
        posts.reserveCapacity(queued.count)
        if let empty {
            data.append(stateJSON[..<empty.lowerBound])
            data.append(contentsOf: #""progress":["#.utf8)
            for (index, post) in queued.enumerated() {
                if index > 0 { data.append(UInt8(ascii: ",")) }
                let start = data.count
                if let json = known.json(of: post) {
                    data.append(json)
                } else {
                    data.append(try encoder.encode(post))
                }
                posts.append((post, start..<data.count))
            }
            data.append(UInt8(ascii: "]"))
            data.append(stateJSON[empty.upperBound...])
        } else {
            data.append(stateJSON)
        }
        data.append(contentsOf: #","summaries":"#.utf8)
        data.append(summaries)
        data.append(contentsOf: "}".utf8)
        var places: [UUID: Int] = [:]
        places.reserveCapacity(posts.count)
        for (place, post) in posts.enumerated() { places[post.post.id] = place }
        encoded = EncodedPosts(bytes: data, posts: posts, places: places)
        return data
    }
}

/// `history/index.<n>.json`: `{"schemaVersion": 1, "segments": [{"segment": "height/2025-03", "file":
/// "height-2025-03.4.json", "count": 31}, …]}`, the history's segments, written when they change.
struct HistoryIndexFile: VersionedFileFormat {
    static let schemaVersion = 1
    static var isIndented: Bool { false }
    var schemaVersion: Int
    var segments: [AccountFileV2.SegmentV2]

    init(value: [HistoryIndex.Segment]) {
        schemaVersion = Self.schemaVersion
        segments = value.map(AccountFileV2.SegmentV2.init)
    }

    var value: [HistoryIndex.Segment] {
        get throws {
            try AccountFileV2.HistoryIndexV2.domain(segments)
        }
    }

    /// `index.<generation>.json`.
    static func fileName(generation: Int) -> String { "index.\(generation).json" }
}

/// `history/summary-<metric>.<n>.json`: one metric's summary (``HistorySummary``), written when the
/// metric's history changes: `{"count": …, "first": …, "last": …, "latest": {"id": […], …},
/// "recent": {…}, "schemaVersion": 1, "series": [seconds, value, seconds, value, …], "type": "weight"}`.
///
/// The first frame reads three of them, each of 48 entries and 480 points, and decoding them is most
/// of its read: so the series is one flat array of numbers (whole seconds and hundredths, finer than
/// any chart draws), and the latest entries a column per field (``LatestColumns``), since an object
/// or a pair costs a container of its own to decode.
struct HistorySummaryFile: VersionedFileFormat {
    static let schemaVersion = 1
    static var isIndented: Bool { false }
    var schemaVersion: Int
    var type: String
    var count: Int
    var first: Date?
    var last: Date?
    var latest: LatestColumns
    var series: [Double]
    var recent: AccountFileV2.RecentV2?

    init(value: (type: String, summary: HistorySummary)) {
        schemaVersion = Self.schemaVersion
        type = value.type
        let summary = value.summary
        count = summary.count
        first = summary.first
        last = summary.last
        latest = LatestColumns(summary.latest)
        series = summary.series.flatMap {
            [$0.at.timeIntervalSinceReferenceDate.rounded(), ($0.value * 100).rounded() / 100]
        }
        recent = summary.recentSince.map { AccountFileV2.RecentV2(since: $0, points: summary.recent) }
    }

    var value: (type: String, summary: HistorySummary) {
        get throws {
            let points = try AccountFileV2.RecentV2.points(series, field: "series")
            return (
                type,
                HistorySummary(
                    count: count, first: first, last: last, latest: try latest.entries(of: type), series: points,
                    recent: try recent?.domain() ?? [], recentSince: recent?.since)
            )
        }
    }

    /// `summary-<metric>.<generation>.json`, the metric written as a segment's is.
    static func fileName(type: String, generation: Int) -> String {
        "summary-\(SegmentKey.fileSafe(type)).\(generation).json"
    }
}

/// A summary's latest entries, a column per field, each in the entries' order (newest first): `id`,
/// `loggedAt` (seconds since 2001, as every cache file writes a date), `notes` (`null` for none),
/// `quantity`, `serverId` (`null` for none) and `source`. The type is the summary's.
struct LatestColumns: Codable, Sendable {
    var id: [String]
    var loggedAt: [Double]
    var notes: [String?]
    var quantity: [Double]
    var serverId: [String?]
    var source: [String]

    init(_ entries: [ProgressEntry]) {
        id = entries.map(\.id.uuidString)
        loggedAt = entries.map(\.loggedAt.timeIntervalSinceReferenceDate)
        notes = entries.map(\.notes)
        quantity = entries.map(\.quantity)
        serverId = entries.map(\.serverId)
        source = entries.map(\.source.rawValue)
    }

    /// The entries of a summary of `type`; throws when the columns differ in length or hold an id or
    /// an instant that is none.
    func entries(of type: String) throws -> [ProgressEntry] {
        let count = id.count
        guard [loggedAt.count, notes.count, quantity.count, serverId.count, source.count].allSatisfy({ $0 == count })
        else { throw AccountFile.invalid("latest", "columns of different lengths") }
        return try (0..<count).map { index in
            guard let uuid = UUID(uuidString: id[index]) else { throw AccountFile.invalid("latest.id", id[index]) }
            let seconds = loggedAt[index]
            guard abs(seconds) <= CacheFileDecoding.maximumSeconds else {
                throw AccountFile.invalid("latest.loggedAt", "\(seconds)")
            }
            return ProgressEntry(
                id: uuid, serverId: serverId[index], type: type, quantity: quantity[index],
                loggedAt: Date(timeIntervalSinceReferenceDate: seconds), notes: notes[index],
                source: ProgressEntry.Source(rawValue: source[index]) ?? .server)
        }
    }
}
