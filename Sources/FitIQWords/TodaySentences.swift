import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What Today says of a metric, the same in the editor's screen, `today` and `today --line`.
extension MetricToday {
    /// Today's value: `4,000 steps`, `7.5 h`; a reading from another day says when (`80.0 kg, 2 days
    /// ago`); `—` without one.
    public func valueText(units: UnitSystem, today: CalendarDate) -> String {
        guard let value = self.today else { return "—" }
        let shown = metric.format(value, unitSystem: units)
        guard metric.kind == .reading, let day = latestDay, day != today else { return shown }
        return tr(
            "{value}, {ago}",
            ["value": shown, "ago": Localizer.current.daysAgo(today.daysSince1970 - day.daysSince1970)])
    }

    /// The 7-day average: `avg 7,214 steps`; empty without one.
    public func averageText(units: UnitSystem) -> String {
        guard let average = averageOf7Days else { return "" }
        return tr("7-day avg {value}", ["value": metric.format(average, unitSystem: units)])
    }

    /// The goal's standing: `goal 10,000 steps: 40 %, 3 days in a row, 2 this week`; a reading's
    /// target (`goal 75.0 kg`); empty without a goal.
    public func goalText(units: UnitSystem) -> String {
        guard let goal else { return "" }
        let target = metric.format(goal.target, unitSystem: units)
        guard let status = dailyGoal else { return tr("goal {target}", ["target": target]) }
        let parts = [
            status.met
                ? tr("goal {target} met", ["target": target])
                : tr("goal {target}: {percent} %", ["target": target, "percent": String(Int(status.progress * 100))]),
            trn("{count} day in a row", "{count} days in a row", count: status.streak),
            trn("{count} day met this week", "{count} days met this week", count: status.metThisWeek),
        ]
        return parts.joined(separator: ", ")
    }

    /// The goal in a few words, for a narrow screen: `40 % of 10,000 steps`, `met: 2 l`, `goal 75.0 kg`.
    public func shortGoalText(units: UnitSystem) -> String {
        guard let goal else { return "" }
        let target = metric.format(goal.target, unitSystem: units)
        guard let status = dailyGoal else { return tr("goal {target}", ["target": target]) }
        return status.met
            ? tr("met: {target}", ["target": target])
            : tr("{percent} % of {target}", ["percent": String(Int(status.progress * 100)), "target": target])
    }

    /// The metric's part of `today --line`: `4,000 steps of 10,000`, `0.75 l water`, `slept 7.5 h`,
    /// `weighed 2 days ago`; `nil` when it has nothing to say today.
    public func linePart(units: UnitSystem, today: CalendarDate) -> String? {
        switch metric.kind {
        case .dailyAmount:
            guard self.today != nil || goal != nil else { return nil }
            let value = metric.format(self.today ?? 0, unitSystem: units)
            guard let goal else {
                return metric == .steps ? value : tr("{value} {name}", ["value": value, "name": metric.name])
            }
            if metric == .steps {
                return tr(
                    "{value} of {target}", ["value": value, "target": DecimalText.grouped(goal.target, places: 0)])
            }
            return tr(
                "{value} of {target} {name}",
                ["value": value, "target": metric.format(goal.target, unitSystem: units), "name": metric.name])
        case .night:
            guard let value = self.today else { return nil }
            return tr("slept {value}", ["value": metric.format(value, unitSystem: units)])
        case .reading:
            guard let day = latestDay, let value = self.today else { return nil }
            let days = today.daysSince1970 - day.daysSince1970
            if metric == .weight { return tr("weighed {ago}", ["ago": Localizer.current.daysAgo(days)]) }
            guard days == 0 else { return nil }
            return tr("{name} {value}", ["name": metric.name, "value": metric.format(value, unitSystem: units)])
        }
    }

    /// `today --line`: the parts of every metric, joined by ` · `; a sentence when there is nothing.
    public static func line(_ metrics: [MetricToday], units: UnitSystem, today: CalendarDate) -> String {
        let parts = metrics.compactMap { $0.linePart(units: units, today: today) }
        return parts.isEmpty ? tr("Nothing logged today.") : parts.joined(separator: " · ")
    }
}
