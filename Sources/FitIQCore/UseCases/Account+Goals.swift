extension Account {
    /// The goals set on this machine.
    public func goals() async throws -> Goals {
        try await store.goals()
    }

    /// Sets `metric`'s goal (replacing any earlier one); the plan starts at today's trend. Returns it.
    @discardableResult
    func setGoal(_ metric: Metric, target: Double, by: CalendarDate?) async throws -> Goal {
        let now = environment.now()
        // A daily goal has no plan: it is met or not each day.
        let start = metric.hasDailyGoal ? nil : try await progressHistory(of: .metric(metric)).trend(at: now)
        let goal = Goal(metric: metric, target: target, by: by, setAt: now, start: start)
        try await store.updateGoals { $0.set(goal) }
        return goal
    }

    /// Clears `metric`'s goal; returns whether there was one.
    @discardableResult
    func clearGoal(_ metric: Metric) async throws -> Bool {
        try await store.updateGoals { $0.clear(metric) }
    }

    /// Where each reading's goal stands (daily goals stand in ``today()``), with the weekly rate of the trend over `range` (3 months by default).
    public func goalStatuses(rateOver range: ProgressRange = .threeMonths) async throws -> [GoalStatus] {
        var statuses: [GoalStatus] = []
        for goal in try await goals().known {
            guard let metric = goal.metric, !metric.hasDailyGoal else { continue }
            let history = try await progressHistory(of: .metric(metric))
            let rate = history.report(since: range.since(now: environment.now())).weeklyRate
            if let status = GoalStatus(goal: goal, history: history.points, rate: rate, in: environment.timeZone) {
                statuses.append(status)
            }
        }
        return statuses
    }
}
