#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Hacker's Diet trend of a metric: an exponentially smoothed average taken over measurements
/// (not days), T ← T + 0.1 (W − T), started at the first measurement. It runs over the whole
/// history; a range shows part of it and is never a fresh start.
public struct Trend: Sendable, Equatable {
    /// How far each measurement pulls the trend.
    public static let smoothing = 0.1

    /// The trend after the measurements added so far, or `nil` before the first.
    public private(set) var value: Double?

    public init() {}

    /// The trend after `measurement`.
    @discardableResult
    public mutating func add(_ measurement: Double) -> Double {
        guard measurement.isFinite else { return value ?? measurement }
        let next = value.map { $0 + Self.smoothing * (measurement - $0) } ?? measurement
        value = next
        return next
    }

    /// The trend after each entry of `entries` (oldest first), beside the entry.
    public static func line(_ entries: some Sequence<ProgressEntry>) -> [(entry: ProgressEntry, trend: Double)] {
        var trend = Trend()
        return entries.map { ($0, trend.add($0.quantity)) }
    }

    /// The trend's change per week between the last point at or before `start` (the first point after
    /// it when none is) and the last point at or before `end`; `nil` with fewer than two points in
    /// that span or a span of under a day.
    public static func weeklyRate(
        _ line: [(entry: ProgressEntry, trend: Double)], from start: Date, to end: Date
    ) -> Double? {
        guard let last = line.last(where: { $0.entry.loggedAt <= end }) else { return nil }
        guard
            let first = line.last(where: { $0.entry.loggedAt <= start })
                ?? line.first(where: { $0.entry.loggedAt > start })
        else { return nil }
        let seconds = last.entry.loggedAt.timeIntervalSince(first.entry.loggedAt)
        guard seconds >= 86_400 else { return nil }
        return (last.trend - first.trend) / (seconds / (7 * 86_400))
    }
}
