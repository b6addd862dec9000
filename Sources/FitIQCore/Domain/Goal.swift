#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A target the user set for a metric, kept on this machine (the FitIQ service has no goals): for a
/// reading (weight, body fat), a value to reach, with an optional date; for a day's amount or a night
/// (steps, water, sleep), a value to reach each day (``Metric/hasDailyGoal``), met or not day by day.
public struct Goal: Sendable, Codable, Equatable {
    /// The metric's `/progress` type. Kept as text: a goal for a metric this build does not know is
    /// kept, and ignored.
    public var type: String
    /// The target, in the metric's unit (kg, %).
    public var target: Double
    /// The day it is to be reached by, if any.
    public var by: CalendarDate?
    /// When it was set.
    public var setAt: Date
    /// The trend when it was set, where the plan line starts; `nil` when there was no reading yet.
    public var start: Double?

    public init(metric: Metric, target: Double, by: CalendarDate?, setAt: Date, start: Double?) {
        self.init(type: metric.type, target: target, by: by, setAt: setAt, start: start)
    }

    /// A goal of the `/progress` type `type`, known to this build or not (as a cache file holds it).
    public init(type: String, target: Double, by: CalendarDate?, setAt: Date, start: Double?) {
        self.type = type
        self.target = target
        self.by = by
        self.setAt = setAt
        self.start = start
    }

    /// The metric, when this build knows it.
    public var metric: Metric? { Metric.ofType(type) }

    /// The goal's value on the plan at `date`: a straight line from `start` when it was set to `target`
    /// on `by`, and the target after; `nil` without a date or a start.
    public func plan(at date: Date, in zone: LocalZone) -> Double? {
        guard let by, let start else { return nil }
        let end = by.instant(atHour: 12, in: zone)
        let span = end.timeIntervalSince(setAt)
        guard span > 0 else { return target }
        let fraction = min(1, max(0, date.timeIntervalSince(setAt) / span))
        return start + (target - start) * fraction
    }

    /// The metrics goals are set for (``Metric/takesGoals``).
    public static var metrics: [Metric] { Metric.all.filter(\.takesGoals) }

    /// A goal of `metric` from what a person typed, or the refusal naming the rule: a metric goals are
    /// set for, a value in its range (typed as the metric is), and a date from `today` on (none for a
    /// daily goal: it is met or not each day).
    public static func parse(
        metric name: String, target: String, by date: String?, unitSystem: UnitSystem, today: CalendarDate
    ) throws(ValidationError) -> (metric: Metric, target: Double, by: CalendarDate?) {
        guard let metric = Metric.named(name), metric.takesGoals else {
            throw .invalidFormat(.goal, rule: .goalMetric(given: name, allowed: metrics.map(\.id)))
        }
        let value = try metric.parse(target, unitSystem: unitSystem)
        guard let date else { return (metric, value, nil) }
        if metric.hasDailyGoal { throw .invalidFormat(.goalDate, rule: .noDateForDailyGoal) }
        guard let day = CalendarDate(parsing: date.trimmingWhitespace()) else {
            throw .invalidFormat(.goalDate, rule: .day)
        }
        guard day >= today else {
            throw .outOfRange(.goalDate, rule: .fromToday(today))
        }
        return (metric, value, day)
    }
}

/// The account's goals, one per metric at most, in the order they were set.
public struct Goals: Sendable, Codable, Equatable {
    /// Every goal kept, those of metrics this build does not know included.
    public var all: [Goal]

    public init(_ all: [Goal] = []) {
        self.all = all
    }

    /// The goals of metrics this build knows, in ``Metric/all``'s order.
    public var known: [Goal] {
        Metric.all.compactMap { goal(for: $0) }
    }

    /// The goal of `metric`, if one is set.
    public func goal(for metric: Metric) -> Goal? {
        all.last { $0.type == metric.type }
    }

    /// Sets `goal`, replacing the metric's earlier one.
    public mutating func set(_ goal: Goal) {
        all.removeAll { $0.type == goal.type }
        all.append(goal)
    }

    /// Clears `metric`'s goal; returns whether there was one.
    @discardableResult
    public mutating func clear(_ metric: Metric) -> Bool {
        let before = all.count
        all.removeAll { $0.type == metric.type }
        return all.count != before
    }
}

/// Where the trend stands against a goal, read from the metric's history with its trend.
public struct GoalStatus: Sendable, Equatable {
    /// Which way the trend moves, relative to the goal.
    public enum Direction: Sendable, Equatable {
        case toward, away, flat
    }

    public var goal: Goal
    public var metric: Metric
    /// The trend now (after the latest reading) and the day of that reading; `nil` without readings.
    public var trend: Double?
    public var trendDate: Date?
    /// Whether the trend has reached the target since the goal was set: the goal is then a band
    /// (``band``) to stay in.
    public var reached: Bool
    /// The weekly rate the prediction uses, and which way it moves; `nil` when there is none.
    public var rate: Double?
    public var direction: Direction?
    /// The day the trend reaches the target at `rate`, when it moves toward it and that is less than
    /// two years away.
    public var predicted: CalendarDate?
    /// The plan's value on the trend's day (goals with a date).
    public var plan: Double?

    /// A weekly rate smaller than this is flat (it shows as ±0.0).
    public static let flatRate = 0.05
    /// The furthest a predicted day may lie: two years.
    public static let horizonDays = 730.0

    /// The goal's band once reached: the target ± ``Metric/goalBand``.
    public var band: ClosedRange<Double> {
        let half = metric.goalBand ?? 0
        return (goal.target - half)...(goal.target + half)
    }

    /// The trend minus the target.
    public var distance: Double? { trend.map { $0 - goal.target } }

    /// How `goal` stands, from `history` (the metric's whole history with its trend, oldest first) and
    /// the weekly `rate` of the range shown; days are taken in `zone`. `nil` for a metric this build
    /// does not know.
    public init?(goal: Goal, history: [(entry: ProgressEntry, trend: Double)], rate: Double?, in zone: LocalZone) {
        guard let metric = goal.metric else { return nil }
        self.goal = goal
        self.metric = metric
        trend = history.last?.trend
        trendDate = history.last?.entry.loggedAt
        self.rate = rate
        // Reached: since it was set, the trend has stood at the target or crossed it, coming from
        // where it started.
        let since = history.lazy.filter { $0.entry.loggedAt >= goal.setAt }.map(\.trend)
        let start = goal.start ?? since.first
        reached =
            start.map { start in
                start == goal.target || since.contains { ($0 - goal.target) * (start - goal.target) <= 0 }
            } ?? false
        if let trend, let rate {
            if abs(rate) < Self.flatRate {
                direction = .flat
            } else {
                direction = (goal.target - trend) * rate > 0 ? .toward : .away
            }
            if direction == .toward, let trendDate {
                let days = (goal.target - trend) / (rate / 7)
                if days.isFinite, days <= Self.horizonDays {
                    predicted = CalendarDate(containing: trendDate.addingTimeInterval(days * 86_400), in: zone)
                }
            }
        }
        plan = trendDate.flatMap { goal.plan(at: $0, in: zone) }
    }
}
