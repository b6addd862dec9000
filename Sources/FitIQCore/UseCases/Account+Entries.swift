#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A metric's entries to list and act on, newest first: those of its last ``days`` days, at most
/// ``limit`` of them in whole days, and how many older ones its history holds besides.
public struct LatestEntries: Sendable, Equatable {
    public var metric: Metric
    /// Newest first.
    public var entries: [ProgressEntry]
    /// How many entries of the history are not listed (older than the oldest listed).
    public var older: Int

    /// How many days back a list reads: weeks more than a screen lists, and a read that does not grow
    /// with the history.
    public static let days = 90
    /// The most entries a list holds (readings imported every minute are thousands a day).
    public static let limit = 500

    public init(metric: Metric, entries: [ProgressEntry], older: Int) {
        self.metric = metric
        self.entries = entries
        self.older = older
    }
}

extension Account {
    /// `metric`'s entries of the last `days` days (today included), at most `limit` of them, read from
    /// the cache alone: the months before are not read, so the wait does not grow with the history.
    /// The list ends on a whole day (a day's amount is the sum of its entries) unless one day alone
    /// holds more than `limit`.
    public func latestEntries(
        of metric: Metric, days: Int = LatestEntries.days, limit: Int = LatestEntries.limit
    ) async throws -> LatestEntries {
        let zone = environment.timeZone
        let since = CalendarDate(containing: environment.now(), in: zone).adding(days: 1 - days)
            .instant(atHour: 0, in: zone)
        let count = try await store.overview().summaries[metric.type]?.count ?? 0
        // Oldest first, the newest `limit` and the one before them (whose day tells whether the oldest
        // day kept is whole); an excess is dropped in halves, so each entry is moved at most once.
        var read: [ProgressEntry] = []
        try await store.forEachEntry(of: metric, since: since) { entry in
            guard entry.quantity.isFinite else { return }
            read.append(entry)
            if read.count >= 2 * (limit + 1) { read.removeFirst(read.count - limit - 1) }
        }
        var kept = read.suffix(limit)
        if let cut = read.dropLast(limit).last, let oldest = kept.first {
            let day = CalendarDate(containing: cut.loggedAt, in: zone)
            if CalendarDate(containing: oldest.loggedAt, in: zone) == day {
                let partial = kept.prefix { CalendarDate(containing: $0.loggedAt, in: zone) == day }
                if partial.count < kept.count { kept = kept.dropFirst(partial.count) }
            }
        }
        return LatestEntries(metric: metric, entries: kept.reversed(), older: max(0, count - kept.count))
    }
}
