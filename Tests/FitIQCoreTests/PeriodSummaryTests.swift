import FitIQCore
import Foundation
import Testing

/// Summaries by Monday week and calendar month, in local time.
struct PeriodSummaryTests {
    static func point(_ day: CalendarDate, hour: Int = 8, _ value: Double, trend: Double? = nil)
        -> (entry: ProgressEntry, trend: Double)
    {
        (
            ProgressEntry(
                type: "weight", quantity: value, loggedAt: day.instant(atHour: hour, in: .utc), source: .manual),
            trend ?? value
        )
    }

    @Test func weeksStartOnMondayAndEachHoldsItsMeanExtremesTrendAndChange() throws {
        // 2026-11-23 is a Monday.
        let monday = try #require(CalendarDate(year: 2026, month: 11, day: 23))
        let points = [
            Self.point(monday.adding(days: -1), 81, trend: 80.5),  // Sunday: the week before
            Self.point(monday, 80, trend: 80.4), Self.point(monday.adding(days: 3), 79, trend: 80.1),
            Self.point(monday.adding(days: 6), 78, trend: 79.6),  // Sunday: still this week
            Self.point(monday.adding(days: 14), 77, trend: 78.9),  // a week later, one skipped
        ]
        let weeks = PeriodSummary.summaries(of: points, by: .week, in: .utc)
        #expect(weeks.map(\.start) == [monday.adding(days: -7), monday, monday.adding(days: 14)])
        #expect(weeks.map(\.count) == [1, 3, 1])
        #expect(weeks[1].mean == 79 && weeks[1].lowest == 78 && weeks[1].highest == 80)
        #expect(weeks[1].trend == 79.6, "the trend as the week ends")
        #expect(weeks[1].end == monday.adding(days: 6))
        #expect(weeks.map(\.change) == [nil, -2, -2])
    }

    @Test func monthsAreCalendarMonthsInTheLocalZone() throws {
        let zone = LocalZone.fixed(secondsEastOfUTC: 3_600)
        let lastOfJanuary = try #require(CalendarDate(year: 2026, month: 1, day: 31))
        // 23:30 UTC on January 31 is February 1 at 00:30 in UTC+1.
        let points = [Self.point(lastOfJanuary, hour: 12, 70), Self.point(lastOfJanuary, hour: 23, 72)]
            .map { point in
                var moved = point
                if point.entry.quantity == 72 { moved.entry.loggedAt += 30 * 60 }
                return moved
            }
        let months = PeriodSummary.summaries(of: points, by: .month, in: zone)
        #expect(months.map(\.start.description) == ["2026-01-01", "2026-02-01"])
        #expect(months.map(\.end.description) == ["2026-01-31", "2026-02-28"])
        #expect(months.last?.change == 2)
    }
}
