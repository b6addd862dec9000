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
    func trend(_ arguments: String) async {
        var words = arguments.split(separator: " ").map { $0.lowercased() }
        var period: SummaryPeriod?
        if let by = words.firstIndex(of: "--by") {
            guard by + 1 < words.count, let chosen = SummaryPeriod(rawValue: words[by + 1]) else {
                return say(tr("Say how to group: --by week or --by month."))
            }
            period = chosen
            words.removeSubrange(by...(by + 1))
        }
        let series = words.first.flatMap(Self.trendSeries) ?? .metric(.weight)
        let range =
            words.lazy.compactMap { word in ProgressRange.allCases.first { $0.word == word } }.first ?? .fourWeeks
        let unknown = words.filter { word in
            Self.trendSeries(word) == nil && !ProgressRange.allCases.contains { $0.word == word }
        }
        guard unknown.isEmpty else {
            return say(
                tr(
                    "Say which trend: trend {metrics} {ranges} [--by week|month] ({words} is neither).",
                    [
                        "metrics": (Metric.all.map(\.id) + ["bmi"]).joined(separator: "|"),
                        "ranges": ProgressRange.allCases.map(\.word).joined(separator: "|"),
                        "words": TextSanitizer.sanitize(unknown.joined(separator: " ")),
                    ]))
        }
        guard let account else { return say(tr("Nothing is signed in.")) }
        do {
            let history = try await account.progressHistory(of: series)
            let report = history.report(since: range.since(now: Date()))
            let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
            let zone = accounts.environment.timeZone
            say(tr("{measurement} {range}:", ["measurement": series.label, "range": range.span]))
            for line in report.sentences(range: range, units: units, timeZone: zone) { say(line) }
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
    func goal(_ arguments: String) async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        var words = arguments.split(separator: " ").map(String.init)
        let zone = accounts.environment.timeZone
        let today = CalendarDate(containing: Date(), in: zone)
        do {
            let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
            guard let name = words.first?.lowercased() else {
                let statuses = try await account.goalStatuses()
                if statuses.isEmpty { return say(tr("No goals are set. goal weight 75 sets one.")) }
                for status in statuses {
                    for line in status.sentences(units: units, today: today) { say(line) }
                }
                return
            }
            words.removeFirst()
            if words.isEmpty || words == ["clear"] {
                guard let metric = Metric.named(name), metric.goalBand != nil else {
                    let names = Goal.metrics.map(\.id)
                    return say(
                        tr(
                            "Say which goal: {first} or {second}.",
                            ["first": names.first ?? "", "second": names.last ?? ""]))
                }
                let measurement = ["measurement": metric.field.labelInSentence]
                guard words.isEmpty else {
                    let cleared = try await account.apply(.clearGoal(metric)).outcome.saved
                    return say(
                        cleared ? tr("The {measurement} goal is cleared.", measurement) : tr("There was no such goal."))
                }
                let statuses = try await account.goalStatuses().filter { $0.metric == metric }
                if statuses.isEmpty { return say(tr("No {measurement} goal is set.", measurement)) }
                for line in statuses.flatMap({ $0.sentences(units: units, today: today) }) { say(line) }
                return
            }
            let date = words.count > 1 && words.last?.contains("-") == true ? words.last : nil
            let target = (date == nil ? words : words.dropLast()).joined(separator: " ")
            say(
                try await GoalCommand.Set.setGoal(
                    metric: name, target: target, by: date, on: account, units: units, today: today))
        } catch {
            say(tr("Not set: {error}", ["error": ShownError(error).description]))
        }
    }

    /// The series `trend` names by a command word: `height`, `weight`, `body-fat`, `bmi`.
    static func trendSeries(_ word: String) -> MeasurementSeries? {
        word == "bmi" ? .bmi : Metric.named(word).map(MeasurementSeries.metric)
    }
}
