#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The periods a summary groups readings by, in local time.
public enum SummaryPeriod: String, CaseIterable, Sendable {
    /// Monday to Sunday.
    case week
    /// A calendar month.
    case month

    /// The first day of the period holding `day`.
    public func start(of day: CalendarDate) -> CalendarDate {
        switch self {
        case .week:
            // 1970-01-01 was a Thursday, three days after a Monday.
            day.adding(days: -(((day.daysSince1970 + 3) % 7 + 7) % 7))
        case .month:
            CalendarDate(year: day.year, month: day.month, day: 1) ?? day
        }
    }

    /// The last day of the period starting on `start`.
    public func end(from start: CalendarDate) -> CalendarDate {
        switch self {
        case .week: start.adding(days: 6)
        case .month: start.adding(days: CalendarDate.daysIn(month: start.month, year: start.year) - 1)
        }
    }
}

/// One period's readings: how many, their mean, lowest and highest, the trend at the period's end,
/// and the change of the mean since the period before it that holds readings.
public struct PeriodSummary: Sendable, Equatable {
    public var period: SummaryPeriod
    /// The period's first day (a Monday, or the 1st).
    public var start: CalendarDate
    public var count: Int
    public var mean: Double
    /// The sum of the period's values: a day's amount's total over the period (its mean is the
    /// average day).
    public var total: Double = 0
    public var lowest: Double
    public var highest: Double
    /// The trend after the period's last reading: the trend as the period ends (it runs over the whole
    /// history, so it carries what came before).
    public var trend: Double
    /// `mean` minus the previous summary's mean; `nil` for the first.
    public var change: Double?

    /// The period's last day.
    public var end: CalendarDate { period.end(from: start) }

    /// The summaries of `points` (oldest first, each reading with the trend after it), one for each
    /// period that holds readings, oldest first; days are taken in `zone`. One pass, in constant memory
    /// per period.
    public static func summaries(
        of points: some Sequence<(entry: ProgressEntry, trend: Double)>, by period: SummaryPeriod, in zone: LocalZone
    ) -> [PeriodSummary] {
        var summaries: [PeriodSummary] = []
        var sum = 0.0
        for point in points where point.entry.quantity.isFinite {
            let value = point.entry.quantity
            let start = period.start(of: CalendarDate(containing: point.entry.loggedAt, in: zone))
            if var last = summaries.last, last.start == start {
                sum += value
                last.count += 1
                last.total = sum
                last.mean = sum / Double(last.count)
                last.lowest = min(last.lowest, value)
                last.highest = max(last.highest, value)
                last.trend = point.trend
                summaries[summaries.count - 1] = last
            } else {
                sum = value
                summaries.append(
                    PeriodSummary(
                        period: period, start: start, count: 1, mean: value, total: value, lowest: value,
                        highest: value, trend: point.trend, change: nil))
            }
        }
        for index in summaries.indices.dropFirst() {
            summaries[index].change = summaries[index].mean - summaries[index - 1].mean
        }
        return summaries
    }
}
