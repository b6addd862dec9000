import FitIQCore
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
