#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the progress view shows of one metric over a range: the latest value, the trend and its
/// weekly rate, the lowest and highest values, and the mean of each week.
public struct ProgressReport: Sendable, Equatable {
    /// A week's readings: the Monday it starts on (local time), their mean and how many they are.
    public struct Week: Sendable, Equatable {
        public var start: CalendarDate
        public var mean: Double
        public var count: Int
    }

    public var series: MeasurementSeries
    /// The entries in the range (for BMI, the weights with their BMI as the quantity) with the trend after each (the trend runs over the whole history).
    public var points: [(entry: ProgressEntry, trend: Double)]
    /// The trend's change per week across the range, when the range holds enough of it.
    public var weeklyRate: Double?
    public var weeks: [Week]

    public init(
        series: MeasurementSeries, points: [(entry: ProgressEntry, trend: Double)], weeklyRate: Double?,
        weeks: [Week]
    ) {
        self.series = series
        self.points = points
        self.weeklyRate = weeklyRate
        self.weeks = weeks
    }

    public var latest: ProgressEntry? { points.last?.entry }
    public var trend: Double? { points.last?.trend }
    public var lowest: ProgressEntry? { points.min { $0.entry.quantity < $1.entry.quantity }?.entry }
    public var highest: ProgressEntry? { points.max { $0.entry.quantity < $1.entry.quantity }?.entry }

    public static func == (lhs: ProgressReport, rhs: ProgressReport) -> Bool {
        lhs.series == rhs.series && lhs.weeklyRate == rhs.weeklyRate && lhs.weeks == rhs.weeks
            && lhs.points.map(\.entry) == rhs.points.map(\.entry) && lhs.points.map(\.trend) == rhs.points.map(\.trend)
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

    /// The report from `since` on (the whole history when `nil`); weeks are taken in `zone`.
    public func report(since: Date?, in zone: LocalZone) -> ProgressReport {
        var before: (entry: ProgressEntry, trend: Double)?
        var inRange: [(entry: ProgressEntry, trend: Double)] = []
        inRange.reserveCapacity(since == nil ? points.count : 0)
        for point in points {
            if let since, point.entry.loggedAt < since {
                before = point
            } else {
                inRange.append(point)
            }
        }
        let end = inRange.last?.entry.loggedAt ?? Date()
        let start = since ?? inRange.first?.entry.loggedAt ?? end
        let rate = Trend.weeklyRate((before.map { [$0] } ?? []) + inRange, from: start, to: end)
        return ProgressReport(
            series: series, points: inRange, weeklyRate: rate, weeks: Account.weeks(inRange, in: zone))
    }

    public static func == (lhs: ProgressHistory, rhs: ProgressHistory) -> Bool {
        lhs.series == rhs.series && lhs.points.map(\.entry) == rhs.points.map(\.entry)
            && lhs.points.map(\.trend) == rhs.points.map(\.trend)
    }
}

extension Account {
    /// The progress of `series` from `since` on (the whole history when `nil`).
    public func progress(of series: MeasurementSeries, since: Date?) async throws -> ProgressReport {
        try await progressHistory(of: series).report(since: since, in: environment.timeZone)
    }

    /// `series`' whole history with its trend, read one month of history at a time.
    public func progressHistory(of series: MeasurementSeries) async throws -> ProgressHistory {
        var trend = Trend()
        var points: [(entry: ProgressEntry, trend: Double)] = []
        let add = { (entry: ProgressEntry) in
            guard entry.quantity.isFinite else { return }
            points.append((entry, trend.add(entry.quantity)))
        }
        switch series {
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

    /// The mean of each week (Monday to Sunday, local time) that holds readings, oldest first.
    static func weeks(_ points: [(entry: ProgressEntry, trend: Double)], in zone: LocalZone) -> [ProgressReport.Week] {
        var weeks: [ProgressReport.Week] = []
        var sum = 0.0
        for point in points {
            let day = CalendarDate(containing: point.entry.loggedAt, in: zone)
            // 1970-01-01 was a Thursday, three days after a Monday.
            let sinceMonday = ((day.daysSince1970 + 3) % 7 + 7) % 7
            let monday = day.adding(days: -sinceMonday)
            if let last = weeks.last, last.start == monday {
                sum += point.entry.quantity
                weeks[weeks.count - 1].count += 1
                weeks[weeks.count - 1].mean = sum / Double(weeks[weeks.count - 1].count)
            } else {
                sum = point.entry.quantity
                weeks.append(ProgressReport.Week(start: monday, mean: sum, count: 1))
            }
        }
        return weeks
    }
}
