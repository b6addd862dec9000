import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `account.json` holds from schema version 2 on: the account without the bulk of its history.
///
/// The history lives in segment files, one per metric and month (``HistorySegmentFile``). This file
/// names them, holds the journal of history changes made since they were last written, and a
/// summary of each metric for the first frame. A save writes this file alone, unless the journal is
/// full: then the segments it touched are written anew first (``HistoryIndex/journalLimit``).
struct StoredAccount: Sendable, Equatable {
    /// The account; its `history` is always empty here.
    var state: AccountState
    var index: HistoryIndex
    /// The summary of each metric's history, by progress type.
    var summaries: [String: HistorySummary]
    /// A version 1 file's history, held inline: written as segments by the next save.
    var inlineHistory: [ProgressEntry]?
    /// The files the index and the summaries were read from or written to (none for a file of an
    /// older version): a part that did not change keeps its file.
    var files = PartFiles()
    /// Read from a file of schema version 1 or 2: the next save writes it whole in this layout.
    var isOlderFile = false
}

/// The segments of the history and the changes made since they were written.
struct HistoryIndex: Sendable, Equatable {
    /// One segment file: the entries of one metric logged in one month (UTC).
    struct Segment: Sendable, Equatable {
        var key: SegmentKey
        /// The file's name in the history folder; a rewritten segment gets a new name.
        var file: String
        var count: Int
    }

    /// One change to the history since the segments were written.
    enum Change: Sendable, Equatable {
        /// An entry added or replaced (same id); `previous` is the segment that held it, if another.
        case put(ProgressEntry, previous: SegmentKey?)
        /// The entry with this id removed from the segment `from`.
        case remove(UUID, from: SegmentKey)

        /// The segments the change touches.
        var keys: [SegmentKey] {
            switch self {
            case .put(let entry, let previous): [SegmentKey(entry)] + (previous.map { [$0] } ?? [])
            case .remove(_, let from): [from]
            }
        }
    }

    var segments: [Segment] = []
    var journal: [Change] = []
    /// The number in the next segment file's name.
    var nextGeneration = 1

    /// How many changes the journal holds before the segments they touch are written anew: enough
    /// for a day of use, few enough that `account.json` stays far below 64 KB.
    static let journalLimit = 96
}

/// A metric and a month: which segment an entry belongs to.
struct SegmentKey: Hashable, Sendable, Comparable {
    var metric: String
    /// `YYYY-MM`, in UTC; `YYYY` for a metric kept by the year (``isKeptByTheYear(_:)``).
    var month: String

    init(metric: String, month: String) {
        self.metric = metric
        self.month = month
    }

    init(_ entry: ProgressEntry) {
        self.init(metric: entry.type, at: entry.loggedAt)
    }

    /// The segment of an entry of `metric` logged at `instant`.
    init(metric: String, at instant: Date) {
        let day = CalendarDate(containing: instant, in: .utc)
        let year = DecimalText.padded(day.year, width: 4)
        self.init(
            metric: metric,
            month: Self.isKeptByTheYear(metric) ? year : year + "-" + DecimalText.padded(day.month, width: 2))
    }

    /// Whether `metric`'s history is kept in a segment a year rather than a month: every metric but
    /// the body's. Ten years of a dozen daily metrics by the month would be 1,440 segments, each a
    /// line of `account.json`'s index that every save writes; by the year they are 120 (a year of one
    /// entry a day is a segment of 365 entries). The body's months stay as they were written.
    static func isKeptByTheYear(_ metric: String) -> Bool {
        Metric.ofType(metric).map { !Metric.body.contains($0) } ?? false
    }

    /// The UTC month (or year, for a metric kept by the year) of `metric` that holds `instant`, as the
    /// instants from its first day's start to the next's.
    static func span(of metric: String, containing instant: Date) -> Range<Date> {
        let day = CalendarDate(containing: instant, in: .utc)
        guard isKeptByTheYear(metric),
            let first = CalendarDate(year: day.year, month: 1, day: 1),
            let next = CalendarDate(year: day.year + 1, month: 1, day: 1)
        else {
            let first = SummaryPeriod.month.start(of: day)
            let next = SummaryPeriod.month.end(from: first).adding(days: 1)
            return first.instant(atHour: 0, in: .utc)..<next.instant(atHour: 0, in: .utc)
        }
        return first.instant(atHour: 0, in: .utc)..<next.instant(atHour: 0, in: .utc)
    }

    /// `height/2025-03`.
    var description: String { metric + "/" + month }

    init?(_ text: String) {
        guard let slash = text.lastIndex(of: "/") else { return nil }
        self.init(metric: String(text[..<slash]), month: String(text[text.index(after: slash)...]))
    }

    static func < (lhs: SegmentKey, rhs: SegmentKey) -> Bool {
        (lhs.metric, lhs.month) < (rhs.metric, rhs.month)
    }

    /// A file name for this segment: the metric written by ``fileSafe(_:)``.
    func fileName(generation: Int) -> String {
        "\(Self.fileSafe(metric))-\(month).\(generation).json"
    }

    /// `metric` with anything but `a-z0-9_` written as `%XX`: a part of a file's name.
    static func fileSafe(_ metric: String) -> String {
        var safe = ""
        for byte in metric.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                safe.append(Character(Unicode.Scalar(byte)))
            default:
                let digits = Array("0123456789ABCDEF")
                safe += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
            }
        }
        return safe
    }
}

/// `account.json`, schema version 2: `{"schemaVersion": 2, "state": {…}, "history": {…}, "summaries": {…}}`.
///
/// `state` has the layout of version 1 (``AccountFile``) with its `history` always empty. Files of
/// versions 1 and 2 are read (``AccountFileV3/decodeOlder(version:from:with:)``) and written back as
/// version 3 by the next save.
struct AccountFileV2: VersionedFileFormat {
    static let schemaVersion = 2
    static var isIndented: Bool { false }
    var schemaVersion: Int
    var state: AccountFile.StateV1
    var history: HistoryIndexV2
    var summaries: [String: SummaryV2]

    init(value: StoredAccount) {
        schemaVersion = Self.schemaVersion
        var state = value.state
        state.history = []
        self.state = AccountFile.StateV1(state)
        history = HistoryIndexV2(value.index)
        summaries = value.summaries.mapValues(SummaryV2.init)
    }

    var value: StoredAccount {
        get throws {
            StoredAccount(
                state: try state.domain(), index: try history.domain(),
                summaries: try summaries.mapValues { try $0.domain() }, inlineHistory: nil)
        }
    }

    static func decodeOlder(version: Int, from data: Data, with decoder: JSONDecoder) throws -> StoredAccount? {
        guard version == AccountFile.schemaVersion else { return nil }
        var state = try decoder.decode(AccountFile.self, from: data).value
        let history = state.history.entries
        state.history = []
        return StoredAccount(state: state, index: HistoryIndex(), summaries: [:], inlineHistory: history)
    }

    struct HistoryIndexV2: Codable, Sendable {
        var segments: [SegmentV2]
        var journal: [ChangeV2]
        var nextGeneration: Int

        init(_ index: HistoryIndex) {
            segments = index.segments.map(SegmentV2.init)
            journal = index.journal.map(ChangeV2.init)
            nextGeneration = index.nextGeneration
        }

        func domain() throws -> HistoryIndex {
            HistoryIndex(
                segments: try Self.domain(segments), journal: try journal.map { try $0.domain() },
                nextGeneration: nextGeneration)
        }

        /// The segments listed, each once.
        static func domain(_ segments: [SegmentV2]) throws -> [HistoryIndex.Segment] {
            let segments = try segments.map { try $0.domain() }
            var seen = Set<SegmentKey>()
            for segment in segments where !seen.insert(segment.key).inserted {
                throw AccountFile.invalid("history.segments", segment.key.description + " is listed twice")
            }
            return segments
        }
    }

    struct SegmentV2: Codable, Sendable {
        var segment: String
        var file: String
        var count: Int

        init(_ segment: HistoryIndex.Segment) {
            self.segment = segment.key.description
            file = segment.file
            count = segment.count
        }

        func domain() throws -> HistoryIndex.Segment {
            guard let key = SegmentKey(segment) else { throw AccountFile.invalid("history.segments.segment", segment) }
            // The file is opened in the history folder: a name that leads elsewhere is damage.
            guard !file.isEmpty, !file.contains("/"), !file.hasPrefix("."), count >= 0 else {
                throw AccountFile.invalid("history.segments.file", file)
            }
            return HistoryIndex.Segment(key: key, file: file, count: count)
        }
    }

    /// `{"put": {entry}, "previous": "height/2025-03"}` or `{"remove": "UUID", "from": "height/2025-03"}`.
    struct ChangeV2: Codable, Sendable {
        var put: AccountFile.EntryV1?
        var previous: String?
        var remove: UUID?
        var from: String?

        init(_ change: HistoryIndex.Change) {
            switch change {
            case .put(let entry, let previous):
                put = AccountFile.EntryV1(entry)
                self.previous = previous?.description
            case .remove(let id, let from):
                remove = id
                self.from = from.description
            }
        }

        func domain() throws -> HistoryIndex.Change {
            if let put {
                return .put(put.domain, previous: try previous.map(Self.key))
            }
            guard let remove, let from else { throw AccountFile.invalid("history.journal", "an empty change") }
            return .remove(remove, from: try Self.key(from))
        }

        static func key(_ text: String) throws -> SegmentKey {
            guard let key = SegmentKey(text) else { throw AccountFile.invalid("history.journal.segment", text) }
            return key
        }
    }

    /// A point of a summary's series, `[seconds, value]`: read as one pair rather than as an array of
    /// any length: the series is most of what the first frame reads (docs/benchmarks.md "bench-scale").
    struct PointV2: Codable, Sendable {
        var seconds: Double
        var value: Double

        init(seconds: Double, value: Double) {
            self.seconds = seconds
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            seconds = try pair.decode(Double.self)
            value = try pair.decode(Double.self)
            guard pair.isAtEnd else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "a point is [seconds, value]"))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(seconds)
            try pair.encode(value)
        }
    }

    struct SummaryV2: Codable, Sendable {
        var count: Int
        var first: Date?
        var last: Date?
        var latest: [AccountFile.EntryV1]
        /// `[seconds since 2001, value]` pairs: whole seconds and hundredths, finer than any chart
        /// draws, so that a summary of each metric costs a save little.
        var series: [PointV2]
        /// Every entry of the last weeks, exactly: absent in files of builds before it.
        var recent: RecentV2?

        init(_ summary: HistorySummary) {
            count = summary.count
            first = summary.first
            last = summary.last
            latest = summary.latest.map(AccountFile.EntryV1.init)
            series = summary.series.map {
                PointV2(
                    seconds: $0.at.timeIntervalSinceReferenceDate.rounded(), value: ($0.value * 100).rounded() / 100)
            }
            recent = summary.recentSince.map { RecentV2(since: $0, points: summary.recent) }
        }

        func domain() throws -> HistorySummary {
            let points = try series.map { point -> HistorySummary.Point in
                guard abs(point.seconds) <= CacheFileDecoding.maximumSeconds else {
                    throw AccountFile.invalid("summaries.series", "[\(point.seconds), \(point.value)]")
                }
                return HistorySummary.Point(at: Date(timeIntervalSinceReferenceDate: point.seconds), value: point.value)
            }
            let recentPoints = try recent?.domain() ?? []
            return HistorySummary(
                count: count, first: first, last: last, latest: latest.map(\.domain), series: points,
                recent: recentPoints, recentSince: recent?.since)
        }
    }

    /// `{"since": seconds, "points": [seconds, value, seconds, value, …]}`: a summary's recent entries,
    /// to the last digit (a day's total adds them up), as one flat array of numbers, which decodes
    /// faster than an array of pairs.
    struct RecentV2: Codable, Sendable {
        var since: Date
        var points: [Double]

        init(since: Date, points: [HistorySummary.Point]) {
            self.since = since
            self.points = points.flatMap { [$0.at.timeIntervalSinceReferenceDate, $0.value] }
        }

        func domain() throws -> [HistorySummary.Point] {
            try Self.points(points, field: "summaries.recent.points")
        }

        /// `numbers` read as `[seconds, value, seconds, value, …]`; `field` names them in an error.
        static func points(_ numbers: [Double], field: String) throws -> [HistorySummary.Point] {
            guard numbers.count.isMultiple(of: 2) else {
                throw AccountFile.invalid(field, "an odd count of numbers: \(numbers.count)")
            }
            return try stride(from: 0, to: numbers.count, by: 2).map { index in
                let (seconds, value) = (numbers[index], numbers[index + 1])
                guard abs(seconds) <= CacheFileDecoding.maximumSeconds, value.isFinite else {
                    throw AccountFile.invalid(field, "[\(seconds), \(value)]")
                }
                return HistorySummary.Point(at: Date(timeIntervalSinceReferenceDate: seconds), value: value)
            }
        }
    }
}

/// One segment of the history: `history/<metric>-<YYYY-MM>.<n>.json`,
/// `{"schemaVersion": 1, "segment": "height/2025-03", "entries": [{…}, …]}`, written once and never
/// changed (a new version of the segment is a new file).
struct HistorySegmentFile: VersionedFileFormat {
    static let schemaVersion = 1
    static var isIndented: Bool { false }
    var schemaVersion: Int
    var segment: String
    var entries: [AccountFile.EntryV1]

    init(value: HistorySegment) {
        schemaVersion = Self.schemaVersion
        segment = value.key.description
        entries = value.entries.map(AccountFile.EntryV1.init)
    }

    var value: HistorySegment {
        get throws {
            guard let key = SegmentKey(segment) else { throw AccountFile.invalid("segment", segment) }
            return HistorySegment(key: key, entries: entries.map(\.domain))
        }
    }
}

/// The entries of one metric logged in one month.
struct HistorySegment: Sendable, Equatable {
    var key: SegmentKey
    var entries: [ProgressEntry]
}
