import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQCore

/// Goals: kept per metric on this machine, and where the trend stands against them.
struct GoalTests {
    static let today = CalendarDate(daysSince1970: CalendarDate.daysSince1970(year: 2026, month: 11, day: 26))

    /// Daily weights from `from` down by `perDay`, the last one today at 08:00 UTC, with their trend.
    static func history(days: Int, from start: Double, perDay: Double) -> [(entry: ProgressEntry, trend: Double)] {
        Trend.line(
            (0..<days).map { index in
                ProgressEntry(
                    type: Metric.weight.type, quantity: start + perDay * Double(index),
                    loggedAt: today.adding(days: index - days + 1).instant(atHour: 8, in: .utc), source: .manual)
            })
    }

    static func goal(_ target: Double, by: CalendarDate? = nil, setDaysAgo: Int = 60, start: Double? = nil) -> Goal {
        Goal(
            metric: .weight, target: target, by: by,
            setAt: today.adding(days: -setDaysAgo).instant(atHour: 0, in: .utc),
            start: start)
    }

    @Test func aGoalIsParsedLikeTheMetricAndRefusedOutsideItsRules() throws {
        let pounds = try Goal.parse(metric: "weight", target: "165 lb", by: nil, unitSystem: .metric, today: Self.today)
        #expect(abs(pounds.target - 74.84) < 0.01 && pounds.by == nil)
        let dated = try Goal.parse(
            metric: "body-fat", target: "18", by: "2027-06-01", unitSystem: .imperial, today: Self.today)
        #expect(dated.metric == .bodyFat && dated.target == 18 && dated.by?.description == "2027-06-01")
        let refusals: [(String, String, String?, String)] = [
            (
                "bmi", "22", nil,
                "A goal can be set for weight, body-fat, steps, distance, active-minutes, calories-out, water, calories-in, protein, carbs, fat, sleep, resting-heart-rate, not bmi."
            ),
            (
                "height", "180", nil,
                "A goal can be set for weight, body-fat, steps, distance, active-minutes, calories-out, water, calories-in, protein, carbs, fat, sleep, resting-heart-rate, not height."
            ),
            ("weight", "700", nil, "Weight must be between 2 and 635 kg"),
            ("body-fat", "80", nil, "Body fat must be between 1 and 75 %"),
            ("weight", "75", "2026-11-25", "The goal's date must be today (2026-11-26) or later."),
            ("weight", "75", "June", "The goal's date must be a date written YYYY-MM-DD."),
        ]
        for (metric, target, by, message) in refusals {
            let error = #expect(throws: ValidationError.self) {
                try Goal.parse(metric: metric, target: target, by: by, unitSystem: .metric, today: Self.today)
            }
            #expect(error?.description.hasPrefix(message) == true, "\(String(describing: error))")
        }
    }

    @Test func aGoalForAMetricThisBuildDoesNotKnowIsKeptAndIgnored() {
        var goals = Goals([Goal(type: "waist_cm", target: 80, by: nil, setAt: Date(), start: nil)])
        goals.set(Self.goal(75))
        goals.set(Self.goal(74))
        #expect(goals.all.count == 2 && goals.all.first?.type == "waist_cm")
        #expect(goals.known.map(\.target) == [74])
        #expect(goals.clear(.weight) && !goals.clear(.weight))
        #expect(goals.all.map(\.type) == ["waist_cm"] && goals.known.isEmpty)
    }

    @Test func towardTheGoalItSaysHowFarAndWhenTheTrendGetsThere() throws {
        // 90 days falling 0.05 kg a day: 0.35 kg a week, from 84.5 to 80.05.
        let history = Self.history(days: 90, from: 84.5, perDay: -0.05)
        let rate = try #require(Trend.weeklyRate(history.suffix(28)))
        let status = try #require(GoalStatus(goal: Self.goal(75), history: history, rate: rate, in: .utc))
        let trend = try #require(status.trend)
        #expect(status.direction == .toward && !status.reached)
        // Independently: days = distance ÷ daily rate, from the latest reading.
        let days = (trend - 75) / (-rate / 7)
        let expected = CalendarDate(containing: Self.today.instant(atHour: 8, in: .utc) + days * 86_400, in: .utc)
        #expect(status.predicted == expected)
        let lines = status.sentences(units: .metric, today: Self.today)
        #expect(lines.first?.hasPrefix("Goal 75.0 kg: the trend, ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("kg above it.") == true, "\(lines)")
        #expect(lines.contains("At −0.3 kg a week it reaches the goal on \(expected)."), "\(lines)")
        // Too slow to get there within two years: no date.
        let slow = try #require(GoalStatus(goal: Self.goal(60), history: history, rate: -0.1, in: .utc))
        #expect(slow.predicted == nil)
        #expect(
            slow.sentences(units: .metric, today: Self.today).contains(
                "At −0.1 kg a week the goal is more than two years away."))
    }

    @Test func awayOrFlatItSaysSoAndPredictsNothing() throws {
        let history = Self.history(days: 30, from: 80, perDay: 0.05)
        let away = try #require(GoalStatus(goal: Self.goal(75), history: history, rate: 0.3, in: .utc))
        #expect(away.direction == .away && away.predicted == nil)
        #expect(
            away.sentences(units: .metric, today: Self.today).contains(
                "The trend is moving away from the goal (+0.3 kg a week)."))
        let flat = try #require(GoalStatus(goal: Self.goal(75), history: history, rate: 0.02, in: .utc))
        #expect(flat.direction == .flat && flat.predicted == nil)
        #expect(
            flat.sentences(units: .metric, today: Self.today).contains("The trend is flat: no date can be foreseen."))
    }

    @Test func withADateItSaysAheadOrBehindThePlan() throws {
        // Set 60 days ago at 84 kg, to reach 74 kg in 120 days: the plan is at 79 kg today.
        let by = Self.today.adding(days: 60)
        let history = Self.history(days: 90, from: 84.5, perDay: -0.05)
        let trend = try #require(history.last?.trend)
        let goal = Self.goal(74, by: by, start: 84)
        let status = try #require(GoalStatus(goal: goal, history: history, rate: -0.35, in: .utc))
        let plan = try #require(status.plan)
        #expect(abs(plan - 79) < 0.1, "\(plan)")
        #expect(trend > plan)
        let lines = status.sentences(units: .metric, today: Self.today)
        #expect(lines.contains { $0.contains("behind the plan for \(by)") }, "\(lines)")
        let ahead = try #require(
            GoalStatus(goal: Self.goal(74, by: by, start: 90), history: history, rate: -0.35, in: .utc))
        #expect(
            ahead.sentences(units: .metric, today: Self.today).contains { $0.contains("ahead of the plan for \(by)") })
    }

    @Test func aReachedGoalIsABandTheTrendIsInsideOrOutsideOf() throws {
        // Down to 75 and below, then back up to about 77.
        let down = Self.history(days: 60, from: 80, perDay: -0.1)
        let shifted = down.map { $0.entry.quantity }
        var entries = down.map(\.entry)
        for (index, value) in shifted.enumerated() { entries[index].quantity = value }
        let reachedBand = Trend.line(
            entries.map { entry in
                var moved = entry
                moved.quantity = max(74, entry.quantity)
                return moved
            })
        let inside = try #require(GoalStatus(goal: Self.goal(75, start: 80), history: reachedBand, rate: nil, in: .utc))
        #expect(inside.reached)
        #expect(inside.sentences(units: .metric, today: Self.today).first?.contains("reached: the trend, ") == true)
        #expect(
            inside.sentences(units: .metric, today: Self.today).first?.contains("is inside the band 73.5–76.5 kg.")
                == true)
        var bounced = reachedBand.map(\.entry)
        for day in 1...20 {
            bounced.append(
                ProgressEntry(
                    type: "weight", quantity: 78.5, loggedAt: Self.today.adding(days: day).instant(atHour: 8, in: .utc),
                    source: .manual))
        }
        let outside = try #require(
            GoalStatus(goal: Self.goal(75, start: 80), history: Trend.line(bounced), rate: nil, in: .utc))
        #expect(outside.reached)
        let line = try #require(outside.sentences(units: .metric, today: Self.today).first)
        #expect(line.contains("is outside the band 73.5–76.5 kg, ") && line.hasSuffix("kg above it."), "\(line)")
    }

    @Test func goalsAreKeptWithTheAccountAndSetFromTheTrendOfTheDay() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        try await account.apply(.measurement(.weight, 80, day: today.adding(days: -1)))
        let goal = try await account.setGoal(.weight, target: 75, by: today.adding(days: 100))
        #expect(goal.start == 80)
        #expect(try await account.goals().known == [goal])
        let statuses = try await account.goalStatuses()
        #expect(statuses.map(\.goal) == [goal])
        #expect(try await account.clearGoal(.weight))
        #expect(try await account.goals().all.isEmpty)
    }
}
