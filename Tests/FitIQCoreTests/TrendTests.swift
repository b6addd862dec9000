import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// The Hacker's Diet trend: T ← T + 0.1 (W − T) over measurements, and its weekly rate.
struct TrendTests {
    static func weights(_ values: [Double], everyDays days: Double = 1) -> [ProgressEntry] {
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        return values.enumerated().map { index, value in
            ProgressEntry(
                type: Metric.weight.type, quantity: value, loggedAt: start + Double(index) * days * 86_400,
                source: .manual)
        }
    }

    @Test func theTrendStartsAtTheFirstMeasurementAndMovesATenthOfTheWay() {
        let line = Trend.line(Self.weights([80, 90, 70]))
        #expect(line.map(\.trend) == [80, 81, 79.9])
        var trend = Trend()
        trend.add(.nan)
        #expect(trend.value == nil)
    }

    @Test func theTrendRunsOverMeasurementsNotDays() {
        // Two readings a day apart or a month apart move the trend alike.
        let close = Trend.line(Self.weights([80, 70], everyDays: 1)).map(\.trend)
        let far = Trend.line(Self.weights([80, 70], everyDays: 30)).map(\.trend)
        #expect(close == far)
    }

    @Test func theWeeklyRateIsTheTrendsChangeAcrossTheRangeAndTheRangeDoesNotRestartIt() throws {
        // A steady loss of 0.1 kg a day, 120 days: the trend lags, then falls 0.7 kg a week.
        let line = Trend.line(Self.weights((0..<120).map { 90 - Double($0) / 10 }))
        let end = try #require(line.last?.entry.loggedAt)
        let rate = try #require(Trend.weeklyRate(line, from: end - 28 * 86_400, to: end))
        #expect(abs(rate - -0.7) < 0.01)
        // A trend started afresh at the range would begin at that day's weight, not the smoothed value.
        let restarted = Trend.line(line.suffix(29).map(\.entry))
        #expect(abs((restarted.first?.trend ?? 0) - (line.suffix(29).first?.trend ?? 0)) > 0.5)
        #expect(Trend.weeklyRate(Array(line.prefix(1)), from: end - 86_400 * 400, to: end) == nil)
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
            try await account.log(.weight, 90 - Double(day) / 10, on: today.adding(days: day - 69))
        }
        try await account.log(.height, 181, on: today.adding(days: -3))
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
        #expect(report.weeks.map(\.count).reduce(0, +) == 28)
        #expect(report.weeks.allSatisfy { (($0.start.daysSince1970 + 3) % 7) == 0 })  // Mondays
        let firstWeek = try #require(report.weeks.first)
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
        try await account.log(.height, 160, on: today.adding(days: -60))
        try await account.log(.weight, 64, on: today.adding(days: -50))
        try await account.log(.height, 180, on: today.adding(days: -40))
        try await account.log(.weight, 81, on: today.adding(days: -30))

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
