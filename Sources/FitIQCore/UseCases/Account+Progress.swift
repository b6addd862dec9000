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

extension Account {
    /// The progress of `series` from `since` on (the whole history when `nil`), read one month of
    /// history at a time: the trend is carried over the entries before the range without keeping them.
    public func progress(of series: MeasurementSeries, since: Date?) async throws -> ProgressReport {
        var trend = Trend()
        var before: (entry: ProgressEntry, trend: Double)?
        var points: [(entry: ProgressEntry, trend: Double)] = []
        let add = { (entry: ProgressEntry) in
            guard entry.quantity.isFinite else { return }
            let value = trend.add(entry.quantity)
            if let since, entry.loggedAt < since {
                before = (entry, value)
            } else {
                points.append((entry, value))
            }
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
        let end = points.last?.entry.loggedAt ?? Date()
        let start = since ?? points.first?.entry.loggedAt ?? end
        let rate = Trend.weeklyRate((before.map { [$0] } ?? []) + points, from: start, to: end)
        return ProgressReport(
            series: series, points: points, weeklyRate: rate, weeks: Self.weeks(points, in: environment.timeZone))
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
