#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A metric's value on each local day, made as its ``Metric/Kind`` says: a day's amount is the sum of
/// the day's entries, a night the hours of the entries ending that day (a night's sleep split in two
/// is two entries), a reading the day's latest entry.
public struct DayValues: Sendable, Equatable {
    public let metric: Metric
    /// The value of each day with entries.
    public private(set) var byDay: [CalendarDate: Double] = [:]
    /// The newest entry's instant, over every day.
    public private(set) var latestAt: Date?
    private var latestOfDay: [CalendarDate: Date] = [:]

    public init(metric: Metric) {
        self.metric = metric
    }

    /// The days of `entries` (any order) in `zone`; entries whose value is not finite are left out.
    public init(metric: Metric, entries: some Sequence<ProgressEntry>, in zone: LocalZone) {
        self.init(metric: metric)
        for entry in entries { add(entry, in: zone) }
    }

    /// Adds one entry of the metric to its day.
    public mutating func add(_ entry: ProgressEntry, in zone: LocalZone) {
        guard entry.type == metric.type else { return }
        add(entry.quantity, at: entry.loggedAt, in: zone)
    }

    /// Adds a value of the metric logged at `instant` to its day.
    public mutating func add(_ value: Double, at instant: Date, in zone: LocalZone) {
        guard value.isFinite else { return }
        let day = CalendarDate(containing: instant, in: zone)
        if latestAt.map({ instant > $0 }) ?? true { latestAt = instant }
        switch metric.kind {
        case .dailyAmount, .night:
            byDay[day, default: 0] += value
        case .reading:
            // Of two entries at one instant, the first given stands.
            if let kept = latestOfDay[day], kept >= instant { return }
            latestOfDay[day] = instant
            byDay[day] = value
        }
    }

    /// The value of `day`, or `nil` when it has no entry.
    public subscript(day: CalendarDate) -> Double? { byDay[day] }

    /// The newest day with a value.
    public var latestDay: CalendarDate? { byDay.keys.max() }

    /// The average of the days with a value among the `days` days ending on `last` (a day without an
    /// entry is a day not recorded, not a zero); `nil` when none has one.
    public func average(days: Int, endingOn last: CalendarDate) -> Double? {
        let values = (0..<max(0, days)).compactMap { byDay[last.adding(days: -$0)] }
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// The values of the `days` days ending on `last`, oldest first, `nil` for a day without entries:
    /// a sparkline's points.
    public func series(days: Int, endingOn last: CalendarDate) -> [Double?] {
        (0..<max(0, days)).reversed().map { byDay[last.adding(days: -$0)] }
    }
}

/// Where a daily goal (an amount or a night to reach each day) stands on a day.
public struct DailyGoalStatus: Sendable, Equatable {
    public var goal: Goal
    /// The day's value so far, 0 without entries.
    public var value: Double
    /// Whether the day's value reached the target.
    public var met: Bool
    /// The days met in a row up to the day, the day itself counted once met (a day not over yet does
    /// not break the streak). At most the days the values cover.
    public var streak: Int
    /// The days met this week, Monday to the day.
    public var metThisWeek: Int
    /// The day's share of the target, from 0 (1 once met, more beyond).
    public var progress: Double { goal.target > 0 ? value / goal.target : 1 }

    /// The goal's standing on `day` from the metric's `days`.
    public init(goal: Goal, days: DayValues, on day: CalendarDate) {
        self.goal = goal
        let isMet = { (date: CalendarDate) in (days[date] ?? 0) >= goal.target }
        value = days[day] ?? 0
        met = isMet(day)
        let oldest = days.byDay.keys.min() ?? day
        var streak = 0
        var date = met ? day : day.adding(days: -1)
        while date >= oldest, isMet(date) {
            streak += 1
            date = date.adding(days: -1)
        }
        self.streak = streak
        // 1970-01-01 was a Thursday: Monday is day 4 of a week counted from it.
        let weekday = ((day.daysSince1970 - 4) % 7 + 7) % 7
        metThisWeek = (0...weekday).count { isMet(day.adding(days: -$0)) }
    }
}

/// One metric's day as Today shows it: today's value (the day's sum, the night that ended today, the
/// latest reading), the 7-day average, the goal, and the last 30 days.
public struct MetricToday: Sendable, Equatable {
    public var metric: Metric
    /// Today's value: for a reading, the latest one, whichever day it was (``latestDay`` says which).
    public var today: Double?
    /// The day of a reading's ``today``; today for amounts and nights.
    public var latestDay: CalendarDate?
    /// The average day of the last seven, today included, over the days with entries.
    public var averageOf7Days: Double?
    /// The last ``sparklineDays`` days, oldest first.
    public var days: [Double?]
    /// The goal, when one is set: a daily goal's standing today, or a reading's target.
    public var goal: Goal?
    public var dailyGoal: DailyGoalStatus?

    /// How many days the sparkline draws.
    public static let sparklineDays = 30
    /// How many days back Today reads for a metric with a daily goal: the streak is counted that far.
    public static let streakDays = 400

    public init(values: DayValues, goal: Goal?, today day: CalendarDate) {
        metric = values.metric
        switch metric.kind {
        case .dailyAmount, .night:
            today = values[day]
            latestDay = day
        case .reading:
            latestDay = values.latestDay
            today = latestDay.flatMap { values[$0] }
        }
        averageOf7Days = values.average(days: 7, endingOn: day)
        days = values.series(days: Self.sparklineDays, endingOn: day)
        self.goal = goal
        dailyGoal = goal.flatMap { metric.hasDailyGoal ? DailyGoalStatus(goal: $0, days: values, on: day) : nil }
    }

    /// Whether there is anything to show: an entry in the days read, or a reading at all.
    public var hasData: Bool { today != nil || days.contains { $0 != nil } }
}
