#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a screen shows of one metric's history without reading all of it: how many entries, over
/// which dates, the latest few, and a series thinned to a fixed number of points for a chart.
///
/// It is computed in one pass over the entries, in any order, and its size does not grow with the
/// history: the cache keeps one per metric beside the profile, so the first frame reads no history.
public struct HistorySummary: Sendable, Equatable {
    /// One point of the thinned series: the last value logged in its slice of time.
    public struct Point: Sendable, Equatable {
        public var at: Date
        public var value: Double

        public init(at: Date, value: Double) {
            self.at = at
            self.value = value
        }
    }

    /// How many entries the history holds.
    public var count: Int
    /// The oldest and the newest instant logged.
    public var first: Date?
    public var last: Date?
    /// The newest entries, newest first, at most ``latestLimit``.
    public var latest: [ProgressEntry]
    /// The history thinned to at most ``seriesLimit`` points, oldest first: the time from the first
    /// entry to the last in equal slices, each holding its newest entry.
    public var series: [Point]
    /// Every entry logged at or after ``recentSince``, oldest first, with its exact instant and value:
    /// what Today adds up into days (in whatever zone it runs) without reading the history's files.
    public var recent: [Point]
    /// Since when ``recent`` holds every entry: ``recentSpan`` before the newest entry (later when
    /// ``recentLimit`` cut it); `nil` when it holds nothing to go by (no entries, or a summary
    /// written before it kept any).
    public var recentSince: Date?

    public init(
        count: Int, first: Date?, last: Date?, latest: [ProgressEntry], series: [Point], recent: [Point] = [],
        recentSince: Date? = nil
    ) {
        self.count = count
        self.first = first
        self.last = last
        self.latest = latest
        self.series = series
        self.recent = recent
        self.recentSince = recentSince
    }

    /// No entries.
    public static let empty = HistorySummary(count: 0, first: nil, last: nil, latest: [], series: [])

    /// How far back from the newest entry ``recent`` reaches: Today's 30 days, whichever zone the
    /// day is counted in, with a day to spare on either side.
    public static let recentSpan: TimeInterval = 32 * 86_400
    /// The most points ``recent`` keeps: a month of a metric logged fifteen times a day. Past it, the
    /// newest are kept and ``recentSince`` moves up to them (Today then reads the rest from the files).
    public static let recentLimit = 500

    /// Whether ``recent`` holds every entry logged at or after `instant`.
    public func recentHolds(since instant: Date) -> Bool {
        recentSince.map { $0 <= instant } ?? false
    }

    /// How many of the newest entries a summary keeps: more than a screen lists at once, few enough
    /// that the summaries of three long histories keep `account.json` under 64 KB.
    public static let latestLimit = 48
    /// How many points the series keeps: more columns than a chart on a wide terminal has.
    public static let seriesLimit = 480
    /// What a summary of another metric (steps, water, sleep…) keeps: its few newest entries and no
    /// series. The profile screen lists and charts the body alone, and Today reads the last weeks from
    /// the history's months: fifteen metrics' summaries still keep `account.json` under 64 KB.
    public static let otherLatestLimit = 4

    /// How many newest entries and points a summary of `type` keeps: the body's (height, weight, body
    /// fat, and a type this build does not know) ``latestLimit`` and ``seriesLimit``, the other metrics'
    /// ``otherLatestLimit`` and no series; each at most ``recentLimit`` recent points.
    public static func limits(ofType type: String) -> (latest: Int, series: Int, recent: Int) {
        guard let metric = Metric.ofType(type), !Metric.body.contains(metric) else {
            return (latestLimit, seriesLimit, recentLimit)
        }
        return (otherLatestLimit, 0, recentLimit)
    }

    /// The summary of `entries` (any order); entries with a value that is not finite are counted
    /// but left out of the series.
    public init(of entries: some Collection<ProgressEntry>) {
        self.init(summarizing: entries)
    }

    /// The summary of an array of entries: the same, made by code specialised for arrays (another
    /// module's call of the generic one walks each entry through the collection's witness table,
    /// copying it; the cache summarises a first sync's whole history).
    public init(of entries: [ProgressEntry]) {
        self.init(summarizing: entries)
    }

    private init(summarizing entries: some Collection<ProgressEntry>) {
        var first: Date?
        var last: Date?
        var isOldestFirst = true
        for entry in entries {
            if first.map({ entry.loggedAt < $0 }) ?? true { first = entry.loggedAt }
            if let newest = last, entry.loggedAt < newest { isOldestFirst = false }
            if last.map({ entry.loggedAt > $0 }) ?? true { last = entry.loggedAt }
        }
        self.count = entries.count
        self.first = first
        self.last = last
        let limits =
            entries.first.map { Self.limits(ofType: $0.type) }
            ?? (latest: Self.latestLimit, series: Self.seriesLimit, recent: Self.recentLimit)
        // The cache keeps the history oldest first: its latest entries are its last ones.
        self.latest =
            isOldestFirst
            ? Array(entries.suffix(limits.latest).reversed()) : Self.newest(entries, limit: limits.latest)
        (self.recent, self.recentSince) =
            limits.recent > 0
            ? Self.recent(of: entries, last: last, limit: limits.recent, isOldestFirst: isOldestFirst) : ([], nil)
        guard let first, let last, limits.series > 0 else {
            self.series = []
            return
        }
        let span = last.timeIntervalSince(first)
        let slots = limits.series
        var newestInSlot = [ProgressEntry?](repeating: nil, count: slots)
        for entry in entries where entry.quantity.isFinite {
            let fraction = span > 0 ? entry.loggedAt.timeIntervalSince(first) / span : 0
            let slot = min(slots - 1, max(0, Int(fraction * Double(slots))))
            if let kept = newestInSlot[slot], kept.loggedAt > entry.loggedAt { continue }
            newestInSlot[slot] = entry
        }
        self.series = newestInSlot.compactMap { $0.map { Point(at: $0.loggedAt, value: $0.quantity) } }
    }

    /// This summary with `entry` added, an entry logged no earlier than every other: the latest
    /// entries and the count follow exactly; the series is this one's points and the entry, thinned
    /// again over the longer span (a summary made from the whole history may pick other points).
    public func appending(_ entry: ProgressEntry) -> HistorySummary {
        var points = series.map { ProgressEntry(quantity: $0.value, loggedAt: $0.at, source: .server) }
        points.append(entry)
        var summary = HistorySummary(of: points)
        summary.count = count + 1
        summary.first = first.map { min($0, entry.loggedAt) } ?? entry.loggedAt
        summary.last = last.map { max($0, entry.loggedAt) } ?? entry.loggedAt
        summary.latest = Array(([entry] + latest).prefix(Self.limits(ofType: entry.type).latest))
        // A summary that kept no recent points (written by an older build) keeps none until it is
        // made again from the whole history: the new entry alone would not be all of them.
        if entry.quantity.isFinite, let last = summary.last, let kept = recentSince {
            let since = last.addingTimeInterval(-Self.recentSpan)
            summary.recent = recent.filter { $0.at >= since } + [Point(at: entry.loggedAt, value: entry.quantity)]
            summary.recentSince = max(since, kept)
            summary.capRecent(Self.limits(ofType: entry.type).recent)
        } else {
            summary.recent = recent
            summary.recentSince = recentSince
        }
        return summary
    }

    /// The entries of the last ``recentSpan`` before `last` as points, oldest first, and since when
    /// they are all there.
    private static func recent(
        of entries: some Collection<ProgressEntry>, last: Date?, limit: Int, isOldestFirst: Bool
    ) -> ([Point], Date?) {
        guard let last else { return ([], nil) }
        let since = last.addingTimeInterval(-recentSpan)
        var summary = HistorySummary.empty
        summary.recentSince = since
        summary.recent = Array(
            entries.lazy.filter { $0.loggedAt >= since && $0.quantity.isFinite }
                .map { Point(at: $0.loggedAt, value: $0.quantity) })
        // The cache keeps the history oldest first: sorted already, almost always.
        if !isOldestFirst { summary.recent.sort { $0.at < $1.at } }
        summary.capRecent(limit)
        return (summary.recent, summary.recentSince)
    }

    /// ``recent`` cut to its newest `limit` points, ``recentSince`` moved past the ones cut.
    private mutating func capRecent(_ limit: Int) {
        guard recent.count > limit else { return }
        guard limit > 0 else {
            (recent, recentSince) = ([], nil)
            return
        }
        let cut = recent.count - limit
        // Points at the instant of the last one cut are cut too, so that `recentSince` is exact.
        let instant = recent[cut - 1].at
        recent.removeFirst(cut)
        recent.removeAll { $0.at <= instant }
        recentSince = Date(timeIntervalSinceReferenceDate: instant.timeIntervalSinceReferenceDate.nextUp)
    }

    /// The `limit` newest entries, newest first, without sorting the whole collection.
    static func newest(_ entries: some Collection<ProgressEntry>, limit: Int) -> [ProgressEntry] {
        var kept: [ProgressEntry] = []
        kept.reserveCapacity(limit + 1)
        for entry in entries {
            if kept.count == limit, let oldest = kept.last, entry.loggedAt <= oldest.loggedAt { continue }
            let index = kept.firstIndex { $0.loggedAt < entry.loggedAt } ?? kept.count
            kept.insert(entry, at: index)
            if kept.count > limit { kept.removeLast() }
        }
        return kept
    }
}
