import FitIQCore
import FitIQLocalization
import FitIQTUI
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Plain mode's progress commands: `trend` and `goal`.
extension PlainMode {
    /// `trend [metric] [4w|3m|1y|all] [--by week|month]`: what the progress screen says, then the goal,
    /// then the table by week or month when asked.
    func trend(_ series: MeasurementSeries, _ range: ProgressRange, by period: SummaryPeriod?) async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        do {
            let history = try await account.progressHistory(of: series)
            let report = history.report(since: range.since(now: Date()))
            let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
            let zone = accounts.environment.timeZone
            say(tr("{measurement} {range}:", ["measurement": series.label, "range": range.span]))
            for line in report.sentences(range: range, units: units, timeZone: zone) { say(line) }
            if series == .metric(.height),
                let growth = GrowthSentences.sentence(
                    heights: history.points.map(\.entry), dateOfBirth: try await account.view().profile?.dateOfBirth,
                    today: CalendarDate(containing: account.environment.now(), in: zone), units: units)
            {
                say(growth)
            }
            if let metric = series.metric, let goal = try await account.goals().goal(for: metric),
                let status = GoalStatus(goal: goal, history: history.points, rate: report.weeklyRate, in: zone)
            {
                for line in status.sentences(units: units, today: CalendarDate(containing: Date(), in: zone)) {
                    say(line)
                }
            }
            if let period {
                let table = SummaryTable(report.summaries(by: period, in: zone), of: series, units: units, by: period)
                for line in table.lines() { say("  " + line) }
            }
        } catch {
            say(tr("No trend: {error}", ["error": ShownError(error).description]))
        }
    }

    /// `goal` says where every goal stands, `goal METRIC` one of them; `goal METRIC VALUE [DATE]` sets
    /// it and `goal METRIC clear` clears it.
    func goal(_ command: PromptCommand) async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        let zone = accounts.environment.timeZone
        let today = CalendarDate(containing: Date(), in: zone)
        do {
            let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
            switch command {
            case .goal(let metric) where metric.hasDailyGoal:
                guard let line = try await account.today().first(where: { $0.metric == metric && $0.goal != nil })
                else {
                    return say(tr("No {measurement} goal is set.", ["measurement": metric.complement]))
                }
                say(metric.field.label + ": " + line.goalText(units: units))
            case .goal(let metric):
                let statuses = try await account.goalStatuses().filter { $0.metric == metric }
                if statuses.isEmpty {
                    return say(tr("No {measurement} goal is set.", ["measurement": metric.complement]))
                }
                for line in statuses.flatMap({ $0.sentences(units: units, today: today) }) { say(line) }
            case .clearGoal(let metric):
                let cleared = try await account.apply(.clearGoal(metric)).outcome.saved
                say(
                    cleared
                        ? tr("The {measurement} goal is cleared.", ["measurement": metric.complement])
                        : tr("There was no such goal."))
            case .setGoal(let name, let target, let date):
                say(
                    try await GoalCommand.Set.setGoal(
                        metric: name, target: target, by: date, on: account, units: units, today: today))
            default:
                let statuses = try await account.goalStatuses()
                let daily = try await account.today().filter { $0.dailyGoal != nil }
                if statuses.isEmpty && daily.isEmpty { return say(tr("No goals are set. goal weight 75 sets one.")) }
                for status in statuses {
                    for line in status.sentences(units: units, today: today) { say(line) }
                }
                for line in daily { say(line.metric.field.label + ": " + line.goalText(units: units)) }
            }
        } catch {
            say(tr("Not set: {error}", ["error": ShownError(error).description]))
        }
    }
}
