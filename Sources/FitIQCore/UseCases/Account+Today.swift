#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Account {
    /// Today for every metric with data, in ``Metric/all``'s order, read from the cache alone: nothing
    /// waits for the network, and what is read does not grow with the history. The last 30 days come
    /// from each metric's summary (``HistorySummary/recent``); the history's files are read only for
    /// a daily goal's streak that goes back further, up to ``MetricToday/streakDays``.
    public func today() async throws -> [MetricToday] {
        let overview = try await store.overview()
        let goals = try await store.goals()
        var metrics: [MetricToday] = []
        for metric in Metric.all {
            guard let summary = overview.summaries[metric.type], summary.count > 0 else { continue }
            let goal = goals.goal(for: metric)
            var today = try await self.today(of: metric, summary: summary, goal: goal, span: MetricToday.sparklineDays)
            // A streak as long as the days read may go back further: read as far as a streak is counted.
            if let streak = today.dailyGoal?.streak, streak >= MetricToday.sparklineDays - 1 {
                today = try await self.today(of: metric, summary: summary, goal: goal, span: MetricToday.streakDays)
            }
            if today.hasData { metrics.append(today) }
        }
        return metrics
    }

    /// `metric`'s day with the `span` days up to today, from its summary when that holds them all.
    private func today(of metric: Metric, summary: HistorySummary, goal: Goal?, span: Int) async throws -> MetricToday {
        let zone = environment.timeZone
        let day = CalendarDate(containing: environment.now(), in: zone)
        let since = day.adding(days: 1 - span).instant(atHour: 0, in: zone)
        var values = DayValues(metric: metric)
        // A reading's latest entry stands however old; the latest entries hold it.
        if metric.kind == .reading, let latest = summary.latest.first { values.add(latest, in: zone) }
        if let last = summary.last, last >= since {
            var read = DayValues(metric: metric)
            if summary.recentHolds(since: since) {
                for point in summary.recent where point.at >= since { read.add(point.value, at: point.at, in: zone) }
            } else {
                try await store.forEachEntry(of: metric, since: since) { read.add($0, in: zone) }
            }
            if metric.kind != .reading || read.latestAt != nil { values = read }
        }
        return MetricToday(values: values, goal: goal, today: day)
    }
}
