#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The trend of a metric: an exponentially smoothed average over time, not over readings.
///
/// T ← T + (1 − 0.9^Δd) (W − T), where Δd is the number of days, fractional, since the previous
/// reading. With one reading a day this is the Hacker's Diet (each reading pulls a tenth of the way);
/// after a long gap a new reading counts almost fully, so a monthly weigh-in is not read as a month of
/// daily ones. Readings within a minute of each other count as one: their mean. The trend starts at
/// the first reading and runs over the whole history; a range shows part of it and is never a fresh
/// start.
public struct Trend: Sendable, Equatable {
    /// What is left of the trend's pull after one day: 0.9, the Hacker's Diet's daily smoothing.
    public static let dailyRetention = 0.9
    /// Readings closer than this to the first of a group are one reading.
    public static let sameReadingWindow: TimeInterval = 60

    /// The trend after the readings added so far, or `nil` before the first.
    public private(set) var value: Double?
    /// The group of readings within ``sameReadingWindow`` being added: when it started, the trend
    /// before it (`nil`: it is the first), how far it pulls, and its sum and count.
    private var group: Group?

    private struct Group: Sendable, Equatable {
        var start: Date
        var before: Double?
        var pull: Double
        var sum: Double
        var count: Int
    }

    public init() {}

    /// How far a reading `days` after the previous one pulls the trend toward itself.
    public static func pull(afterDays days: Double) -> Double {
        1 - pow(dailyRetention, max(0, days))
    }

    /// The trend after `reading`, taken at `date`; readings come oldest first. A reading that is not a
    /// finite number leaves the trend as it was.
    @discardableResult
    public mutating func add(_ reading: Double, at date: Date) -> Double {
        guard reading.isFinite else { return value ?? reading }
        if var current = group, date.timeIntervalSince(current.start) < Self.sameReadingWindow {
            current.sum += reading
            current.count += 1
            group = current
        } else {
            let days = group.map { date.timeIntervalSince($0.start) / 86_400 } ?? 0
            group = Group(start: date, before: value, pull: Self.pull(afterDays: days), sum: reading, count: 1)
        }
        guard let current = group else { return reading }
        let mean = current.sum / Double(current.count)
        let next = current.before.map { $0 + current.pull * (mean - $0) } ?? mean
        value = next
        return next
    }

    /// The trend after each entry of `entries` (oldest first), beside the entry.
    public static func line(_ entries: some Sequence<ProgressEntry>) -> [(entry: ProgressEntry, trend: Double)] {
        var trend = Trend()
        return entries.map { ($0, trend.add($0.quantity, at: $0.loggedAt)) }
    }

    /// The trend's change per week: the least-squares slope of the trend against time over `line`
    /// (oldest first); `nil` with fewer than two points or a span of under a day.
    public static func weeklyRate(
        _ line: some BidirectionalCollection<(entry: ProgressEntry, trend: Double)>
    ) -> Double? {
        guard let first = line.first?.entry.loggedAt, let last = line.last?.entry.loggedAt,
            last.timeIntervalSince(first) >= 86_400
        else { return nil }
        // Days from the first point, and deviations from the means (two passes): the sums stay small
        // and nothing cancels, even over 100,000 readings.
        let points = line.lazy.filter(\.trend.isFinite).map {
            (x: $0.entry.loggedAt.timeIntervalSince(first) / 86_400, y: $0.trend)
        }
        var count = 0.0
        var (sumX, sumY) = (0.0, 0.0)
        for point in points {
            count += 1
            sumX += point.x
            sumY += point.y
        }
        guard count >= 2 else { return nil }
        let (meanX, meanY) = (sumX / count, sumY / count)
        var (spread, covariance) = (0.0, 0.0)
        for point in points {
            spread += (point.x - meanX) * (point.x - meanX)
            covariance += (point.x - meanX) * (point.y - meanY)
        }
        guard spread > 0 else { return nil }
        let perDay = covariance / spread
        return perDay.isFinite ? perDay * 7 : nil
    }
}
