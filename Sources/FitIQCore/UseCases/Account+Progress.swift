#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the progress view shows of one metric over a range: the latest value, the trend and its
/// weekly rate, the lowest and highest values, and the summaries by week or month.
public struct ProgressReport: Sendable, Equatable {
    public var series: MeasurementSeries
    /// The entries in the range (for BMI, the weights with their BMI as the quantity) with the trend
    /// after each (the trend runs over the whole history).
    public var points: [(entry: ProgressEntry, trend: Double)]
    /// The least-squares slope of the trend across the range, per week (``Trend/weeklyRate(_:)``).
    public var weeklyRate: Double?

    public init(series: MeasurementSeries, points: [(entry: ProgressEntry, trend: Double)]) {
        self.series = series
        self.points = points
        self.weeklyRate = Trend.weeklyRate(points)
    }

    public var latest: ProgressEntry? { points.last?.entry }
    public var trend: Double? { points.last?.trend }
    public var lowest: ProgressEntry? { points.min { $0.entry.quantity < $1.entry.quantity }?.entry }
    public var highest: ProgressEntry? { points.max { $0.entry.quantity < $1.entry.quantity }?.entry }

    /// The range's readings by week or month (``PeriodSummary``), days taken in `zone`.
    public func summaries(by period: SummaryPeriod, in zone: LocalZone) -> [PeriodSummary] {
        PeriodSummary.summaries(of: points, by: period, in: zone)
    }

    public static func == (lhs: ProgressReport, rhs: ProgressReport) -> Bool {
        lhs.series == rhs.series && lhs.weeklyRate == rhs.weeklyRate
            && lhs.points.map(\.entry) == rhs.points.map(\.entry)
            && lhs.points.map(\.trend) == rhs.points.map(\.trend)
    }
}

/// A series' whole history, each reading with the trend after it (the trend runs over the whole
/// history): read once, then any range's report is cut from it without reading again.
public struct ProgressHistory: Sendable, Equatable {
    public var series: MeasurementSeries
    public var points: [(entry: ProgressEntry, trend: Double)]

    public init(series: MeasurementSeries, points: [(entry: ProgressEntry, trend: Double)]) {
        self.series = series
        self.points = points
    }

    /// The report of the readings from `since` up to `until` (either end open when `nil`).
    public func report(since: Date?, until: Date? = nil) -> ProgressReport {
        let from = since.map { since in points.partitioningIndex { $0.entry.loggedAt >= since } } ?? points.startIndex
        let to = until.map { until in points.partitioningIndex { $0.entry.loggedAt > until } } ?? points.endIndex
        return ProgressReport(series: series, points: from < to ? Array(points[from..<to]) : [])
    }

    /// The trend as of `date`: after the last reading at or before it.
    public func trend(at date: Date) -> Double? {
        let index = points.partitioningIndex { $0.entry.loggedAt > date }
        return index > points.startIndex ? points[index - 1].trend : nil
    }

    public static func == (lhs: ProgressHistory, rhs: ProgressHistory) -> Bool {
        lhs.series == rhs.series && lhs.points.map(\.entry) == rhs.points.map(\.entry)
            && lhs.points.map(\.trend) == rhs.points.map(\.trend)
    }
}

extension Array {
    /// The first index whose element satisfies `isAbove`, for a predicate false then true along the
    /// array (a binary search).
    func partitioningIndex(where isAbove: (Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if isAbove(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Account {
    /// The progress of `series` from `since` on (the whole history when `nil`).
    public func progress(of series: MeasurementSeries, since: Date?) async throws -> ProgressReport {
        try await progressHistory(of: series).report(since: since)
    }

    /// `series`' whole history with its trend, read one month of history at a time.
    public func progressHistory(of series: MeasurementSeries) async throws -> ProgressHistory {
        var trend = Trend()
        var points: [(entry: ProgressEntry, trend: Double)] = []
        let add = { (entry: ProgressEntry) in
            guard entry.quantity.isFinite else { return }
            points.append((entry, trend.add(entry.quantity, at: entry.loggedAt)))
        }
        switch series {
        case .metric(let metric) where metric.kind != .reading:
            // A day's amount or a night: one point a day, its value the day's, and the 7-day average
            // for a trend.
            let zone = environment.timeZone
            var days = DayValues(metric: metric)
            try await store.forEachEntry(of: metric) { days.add($0, in: zone) }
            for (day, value) in days.byDay.sorted(by: { $0.key < $1.key }) {
                let entry = ProgressEntry(
                    type: metric.type, quantity: value,
                    loggedAt: day.instant(atHour: 12, in: zone), source: .server)
                points.append((entry, days.average(days: 7, endingOn: day) ?? value))
            }
        case .metric(let metric):
            try await store.forEachEntry(of: metric, add)
        case .bmi:
            try await forEachBodyMassIndex { weight, value in
                var entry = weight
                entry.quantity = value
                add(entry)
            }
        }
        return ProgressHistory(series: series, points: points)
    }
}
