#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Account {
    /// Today for every metric with data, in ``Metric/all``'s order, read from the cache alone: nothing
    /// waits for the network, and what is read does not grow with the history (the last 30 days of each
    /// metric, ``MetricToday/streakDays`` for one with a daily goal, and a reading's latest entry).
    public func today() async throws -> [MetricToday] {
        let zone = environment.timeZone
        let day = CalendarDate(containing: environment.now(), in: zone)
        let overview = try await store.overview()
        let goals = try await store.goals()
        var metrics: [MetricToday] = []
        for metric in Metric.all {
            guard let summary = overview.summaries[metric.type], summary.count > 0 else { continue }
            let goal = goals.goal(for: metric)
            let span = goal != nil && metric.hasDailyGoal ? MetricToday.streakDays : MetricToday.sparklineDays
            var values = DayValues(metric: metric)
            // A reading's latest entry stands however old; the latest entries hold it.
            if metric.kind == .reading, let latest = summary.latest.first { values.add(latest, in: zone) }
            if let last = summary.last, last >= day.adding(days: 1 - span).instant(atHour: 0, in: zone) {
                let since = day.adding(days: 1 - span).instant(atHour: 0, in: zone)
                var read = DayValues(metric: metric)
                try await store.forEachEntry(of: metric, since: since) { read.add($0, in: zone) }
                if metric.kind != .reading || read.latestAt != nil { values = read }
            }
            let today = MetricToday(values: values, goal: goal, today: day)
            if today.hasData { metrics.append(today) }
        }
        return metrics
    }
}
