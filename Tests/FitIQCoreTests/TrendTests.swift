import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

/// The time-aware trend: T ← T + (1 − 0.9^Δd) (W − T), and its weekly rate, the least-squares slope.
struct TrendTests {
    static let start = Date(timeIntervalSince1970: 1_780_000_000)

    /// Readings of `values`, each `days` after the previous (the first at ``start``).
    static func readings(_ values: [(days: Double, value: Double)]) -> [ProgressEntry] {
        var at = start
        return values.enumerated().map { index, reading in
            if index > 0 { at += reading.days * 86_400 }
            return ProgressEntry(type: Metric.weight.type, quantity: reading.value, loggedAt: at, source: .manual)
        }
    }

    static func weights(_ values: [Double], everyDays days: Double = 1) -> [ProgressEntry] {
        readings(values.map { (days, $0) })
    }

    /// The recurrence written out, independently of ``Trend``.
    static func expected(_ values: [(days: Double, value: Double)]) -> [Double] {
        var trend: Double?
        return values.map { reading in
            let next =
                trend.map { $0 + (1 - Foundation.pow(0.9, reading.days)) * (reading.value - $0) } ?? reading.value
            trend = next
            return next
        }
    }

    @Test func oneReadingADayPullsATenthOfTheWayAsTheHackersDietDoes() {
        let line = Trend.line(Self.weights([80, 90, 70]))
        #expect(zip(line.map(\.trend), [80, 81, 79.9]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(line.map(\.trend))")
        var trend = Trend()
        trend.add(.nan, at: Self.start)
        #expect(trend.value == nil)
    }

    @Test func irregularReadingsPullByTheDaysBetweenThem() {
        let readings: [(days: Double, value: Double)] = [
            (0, 80), (1, 81), (4, 79), (0.5, 80.5), (14, 78), (2.25, 78.4),
        ]
        let line = Trend.line(Self.readings(readings)).map(\.trend)
        #expect(zip(line, Self.expected(readings)).allSatisfy { abs($0 - $1) < 1e-9 }, "\(line)")
        // A reading a month after the last counts almost fully; a day after, a tenth.
        let month = Trend.line(Self.weights([80, 70], everyDays: 30)).map(\.trend)
        let day = Trend.line(Self.weights([80, 70], everyDays: 1)).map(\.trend)
        #expect(abs(month[1] - 70.42) < 0.01 && abs(day[1] - 79) < 1e-9, "\(month) \(day)")
    }

    @Test func readingsWithinAMinuteCountAsOneTheirMean() {
        var grouped = Trend()
        grouped.add(80, at: Self.start)
        grouped.add(82, at: Self.start + 86_400)
        let two = grouped.add(84, at: Self.start + 86_400 + 40)
        var single = Trend()
        single.add(80, at: Self.start)
        let one = single.add(83, at: Self.start + 86_400)
        #expect(abs(two - one) < 1e-9, "\(two) \(one)")
        // The first readings too: their mean starts the trend.
        var first = Trend()
        first.add(80, at: Self.start)
        #expect(first.add(90, at: Self.start + 30) == 85)
    }

    @Test func aSingleReadingIsItsOwnTrendWithNoRate() {
        let line = Trend.line(Self.weights([72.4]))
        #expect(line.map(\.trend) == [72.4])
        #expect(Trend.weeklyRate(line) == nil)
        // Two readings hours apart span less than a day: no rate either.
        #expect(Trend.weeklyRate(Trend.line(Self.weights([72.4, 72.0], everyDays: 0.25))) == nil)
    }

    /// The first row: monthly weigh-ins from 90 to 78 kg over a year, 1 kg a month.
    @Test func monthlyWeighInsGiveTheScalesValueAndAQuarterKilogramAWeek() throws {
        var readings: [ProgressEntry] = []
        for month in 0...12 {
            let day = try #require(CalendarDate(year: 2025 + month / 12, month: month % 12 + 1, day: 1))
            readings.append(
                ProgressEntry(
                    type: Metric.weight.type, quantity: 90 - Double(month), loggedAt: day.instant(atHour: 8, in: .utc),
                    source: .manual))
        }
        let line = Trend.line(readings)
        let trend = try #require(line.last?.trend)
        #expect(abs(trend - 78) < 0.3, "\(trend)")
        let rate = try #require(Trend.weeklyRate(line))
        #expect(abs(rate - -0.23) < 0.03, "\(rate)")
    }

    /// The second row: 80 kg daily for 60 days, 8 weeks without weighing, then 85 kg three days running.
    @Test func aReadingAfterALongGapCountsAlmostFully() throws {
        let readings =
            Array(repeating: (days: 1.0, value: 80.0), count: 60) + [(days: 57.0, value: 85.0)]
            + Array(repeating: (days: 1.0, value: 85.0), count: 2)
        let trend = try #require(Trend.line(Self.readings(readings)).last?.trend)
        #expect(abs(trend - 85) < 0.3, "\(trend)")
    }

    @Test func theWeeklyRateIsTheLeastSquaresSlopeOfTheTrendOverTheRange() throws {
        // A steady loss of 0.1 kg a day, 120 days: the trend lags, then falls 0.7 kg a week.
        let line = Trend.line(Self.weights((0..<120).map { 90 - Double($0) / 10 }))
        let rate = try #require(Trend.weeklyRate(line.suffix(28)))
        #expect(abs(rate - -0.7) < 0.01, "\(rate)")
        // A straight line of points has that line's slope, however they are spaced.
        let points = [0.0, 3, 4, 10, 30].map { day in
            (
                entry: ProgressEntry(
                    type: "weight", quantity: 0, loggedAt: Self.start + day * 86_400, source: .manual),
                trend: 80 - 0.2 * day
            )
        }
        #expect(abs((Trend.weeklyRate(points) ?? 0) - -1.4) < 1e-9)
        // A trend started afresh at the range would begin at that day's weight, not the smoothed value.
        let restarted = Trend.line(line.suffix(29).map(\.entry))
        #expect(abs((restarted.first?.trend ?? 0) - (line.suffix(29).first?.trend ?? 0)) > 0.5)
    }
}

/// The progress report of a metric over a range, read from the account's history.
struct ProgressReportTests {
    @Test func theRangeShowsTheTrendCarriedFromBeforeItAndItsWeeklyMeans() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        // 70 daily weights falling 0.1 kg a day, and a height that must not mix in.
        for day in 0..<70 {
            try await account.apply(.measurement(.weight, 90 - Double(day) / 10, day: today.adding(days: day - 69)))
        }
        try await account.apply(.measurement(.height, 181, day: today.adding(days: -3)))
        let since = today.adding(days: -27).instant(atHour: 0, in: .utc)

        let report = try await account.progress(of: .metric(.weight), since: since)

        #expect(report.points.count == 28)
        #expect(report.latest?.quantity == 83.1)
        #expect(report.lowest?.quantity == 83.1 && report.highest?.quantity == 85.8)
        // The trend was carried over the 42 readings before the range: it lags the weights by about
        // 0.9 kg, as a trend started afresh at the range would not.
        let trend = try #require(report.trend)
        #expect(abs(trend - 84.0) < 0.05, "\(trend)")
        let rate = try #require(report.weeklyRate)
        #expect(abs(rate - -0.7) < 0.02, "\(rate)")
        let weeks = report.summaries(by: .week, in: .utc)
        #expect(weeks.map(\.count).reduce(0, +) == 28)
        #expect(weeks.allSatisfy { (($0.start.daysSince1970 + 3) % 7) == 0 })  // Mondays
        let firstWeek = try #require(weeks.first)
        let inFirstWeek = report.points.prefix(firstWeek.count).map(\.entry.quantity)
        #expect(abs(firstWeek.mean - inFirstWeek.reduce(0, +) / Double(inFirstWeek.count)) < 1e-9)
    }
}

/// BMI over time: one value per weight, with the height at that weight's date.
struct BodyMassIndexProgressTests {
    @Test func eachWeightGivesABMIWithTheHeightOfItsDate() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        try await account.apply(.measurement(.height, 160, day: today.adding(days: -60)))
        try await account.apply(.measurement(.weight, 64, day: today.adding(days: -50)))
        try await account.apply(.measurement(.height, 180, day: today.adding(days: -40)))
        try await account.apply(.measurement(.weight, 81, day: today.adding(days: -30)))

        let report = try await account.progress(of: .bmi, since: nil)

        #expect(report.series == .bmi)
        // 64 / 1.6² and 81 / 1.8²: each weight with the height of its own date.
        #expect(report.points.map(\.entry.quantity) == [25, 25])
        #expect(report.points.map(\.trend) == [25, 25])
        let none = try await TestHarness().signedIn().progress(of: .bmi, since: nil)
        #expect(none.points.isEmpty)
    }
}

/// How a weekly rate reads.
struct RateTextTests {
    @Test func aRateIsSignedInTheUsersUnitsAndNothingIsNeverNegative() {
        let weight = MeasurementSeries.metric(.weight)
        #expect(weight.rateText(-0.44, unitSystem: .metric) == "−0.4 kg a week")
        #expect(weight.rateText(0.2, unitSystem: .metric) == "+0.2 kg a week")
        #expect(weight.rateText(-0.2, unitSystem: .imperial) == "−0.4 lb a week")
        #expect(weight.rateText(-0.01, unitSystem: .metric) == "±0.0 kg a week")
        #expect(weight.rateText(0.04, unitSystem: .metric) == "±0.0 kg a week")
        #expect(MeasurementSeries.bmi.rateText(-0.1, unitSystem: .imperial) == "−0.1 kg/m² a week")
        #expect(MeasurementSeries.bmi.missingText.contains("weights and a height"))
    }
}
