import FitIQCore
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

/// The metrics beside the body: typed with their units, refused by their rules, and made into a
/// day's value as their kind says.
struct EveryMetricTests {
    @Test(arguments: [
        (Metric.water, "0.25 l", UnitSystem.metric, 0.25), (.water, "500 ml", .metric, 0.5),
        (.water, "8 fl oz", .metric, 0.24), (.water, "8", .imperial, 0.24), (.water, "0,25", .metric, 0.25),
        (.steps, "4,000", .metric, 4000), (.steps, "4.000 steps", .metric, 4000), (.steps, "12345", .metric, 12345),
        (.sleep, "7h30m", .metric, 7.5), (.sleep, "7:30", .metric, 7.5), (.sleep, "7.5", .metric, 7.5),
        (.sleep, "7 h 15 min", .metric, 7.25), (.activeMinutes, "1h30m", .metric, 90),
        (.activeMinutes, "45", .metric, 45),
        (.activeMinutes, "1,440 min", .metric, 1440), (.caloriesIn, "9600 kJ", .metric, 2294.46),
        (.caloriesOut, "2,300 kcal", .metric, 2300), (.distance, "800 m", .metric, 0.8),
        (.distance, "3.1 mi", .metric, 4.99), (.distance, "3.1", .imperial, 4.99), (.protein, "30 g", .metric, 30),
        (.restingHeartRate, "58 bpm", .metric, 58), (.mood, "7/10", .metric, 7), (.mood, "7", .metric, 7),
    ])
    func aValueIsTypedWithItsUnit(metric: Metric, text: String, units: UnitSystem, expected: Double) throws {
        #expect(try metric.parse(text, unitSystem: units) == expected)
    }

    @Test(arguments: [
        (Metric.steps, "-5", "Steps must be a whole number between 1 and 100,000."),
        (.steps, "4000.5", "Steps must be a whole number between 1 and 100,000."),
        (.steps, "many", "Steps must be a whole number, e.g. 4000 or 4,000 steps."),
        (.water, "11 l", "Water must be between 0.01 and 10 l."),
        (.water, "2 cups", "Water must be a number with an optional unit, e.g. 0.25 l, 250 ml or 8 fl oz."),
        (.sleep, "25", "Sleep must be between 0 and 24 h."),
        (.mood, "11", "Mood must be a whole number between 1 and 10."),
        (.restingHeartRate, "300", "Resting heart rate must be between 20 and 250 bpm."),
        (.activeMinutes, "-10", "Active minutes must be between 1 and 1,440 min."),
    ])
    func aValueOutsideItsRuleIsRefusedNamingTheMetric(metric: Metric, text: String, message: String) {
        let error = #expect(throws: ValidationError.self) { try metric.parse(text, unitSystem: .metric) }
        #expect(error?.description == message)
        #expect(error?.field == metric.field)
    }

    @Test func valuesAreShownInTheirUnitAndGroupedByThousands() {
        #expect(Metric.steps.format(12_345, unitSystem: .metric) == "12,345 steps")
        #expect(Metric.water.format(0.75, unitSystem: .metric) == "0.75 l")
        #expect(Metric.water.format(0.75, unitSystem: .imperial) == "25.4 fl oz")
        #expect(Metric.sleep.format(7.5, unitSystem: .metric) == "7.5 h")
        #expect(Metric.distance.format(5, unitSystem: .imperial) == "3.11 mi")
        #expect(Metric.mood.format(7, unitSystem: .metric) == "7/10")
        // Typed back to the same display: 1.8 minutes of sleep is 0.03 h, shown as 0 h, not 0.0 h.
        #expect(Metric.sleep.format(0.03, unitSystem: .metric) == "0 h")
        #expect(Metric.protein.format(0.04, unitSystem: .metric) == "0 g")
        #expect(Metric.protein.format(30.25, unitSystem: .metric) == "30.3 g")
        let german = DecimalText.$groupSeparator.withValue(".") {
            DecimalText.$separator.withValue(",") { Metric.water.format(1234.5, unitSystem: .metric) }
        }
        #expect(german == "1.234,5 l")
    }

    static let zone = LocalZone.fixed(secondsEastOfUTC: 3_600)
    static func at(_ day: String, _ hour: Int, _ minute: Int = 0) -> Date {
        (CalendarDate(parsing: day) ?? CalendarDate(daysSince1970: 0)).instant(atHour: hour, in: zone)
            .addingTimeInterval(Double(minute) * 60)
    }
    static func entry(_ metric: Metric, _ value: Double, _ day: String, _ hour: Int, _ minute: Int = 0) -> ProgressEntry
    {
        ProgressEntry(type: metric.type, quantity: value, loggedAt: at(day, hour, minute), source: .manual)
    }

    /// Two glasses on a local day are its sum; a glass at 23:30 local is that day's, though UTC has
    /// moved on; a night is the day it ends on; a reading's day is its latest.
    @Test func aDaysValueFollowsTheMetricsKind() throws {
        let water = DayValues(
            metric: .water,
            entries: [
                Self.entry(.water, 0.25, "2026-12-01", 9), Self.entry(.water, 0.5, "2026-12-01", 23, 30),
                Self.entry(.water, 1, "2026-12-02", 0, 30),
            ], in: Self.zone)
        #expect(water[CalendarDate(parsing: "2026-12-01")!] == 0.75)
        #expect(water[CalendarDate(parsing: "2026-12-02")!] == 1)
        let weight = DayValues(
            metric: .weight,
            entries: [Self.entry(.weight, 80, "2026-12-01", 7), Self.entry(.weight, 79.5, "2026-12-01", 21)],
            in: Self.zone)
        #expect(weight[CalendarDate(parsing: "2026-12-01")!] == 79.5)
        let today = CalendarDate(parsing: "2026-12-02")!
        #expect(water.average(days: 7, endingOn: today) == 0.875)
        #expect(water.series(days: 3, endingOn: today) == [nil, 0.75, 1])
    }

    /// A daily goal is met on the days that reach it; the streak runs back to the first day that did
    /// not, today counted once met and not breaking it before; the week starts on Monday.
    @Test func aDailyGoalCountsItsStreakAndTheDaysMetThisWeek() throws {
        // 2026-12-02 is a Wednesday.
        let steps = [
            ("2026-11-27", 11_000.0), ("2026-11-28", 4_000), ("2026-11-29", 10_000), ("2026-11-30", 12_000),
            ("2026-12-01", 10_500), ("2026-12-02", 3_000),
        ]
        let values = DayValues(metric: .steps, entries: steps.map { Self.entry(.steps, $0.1, $0.0, 12) }, in: Self.zone)
        let goal = Goal(metric: .steps, target: 10_000, by: nil, setAt: Self.at("2026-11-01", 0), start: nil)
        let today = CalendarDate(parsing: "2026-12-02")!
        let status = DailyGoalStatus(goal: goal, days: values, on: today)
        #expect(!status.met && status.value == 3_000 && status.streak == 3 && status.metThisWeek == 2)
        #expect(abs(status.progress - 0.3) < 1e-9)
        let met = DailyGoalStatus(goal: goal, days: values, on: CalendarDate(parsing: "2026-12-01")!)
        #expect(met.met && met.streak == 3 && met.metThisWeek == 2)
    }

    /// A 14-year-old who measured 150 cm a year ago and 156 cm now grows about 6 cm a year; an adult
    /// is told no rate.
    @Test func aTeenagersHeightsSayHowFastTheyGrow() throws {
        let today = CalendarDate(parsing: "2026-12-02")!
        let heights = [
            Self.entry(.height, 150, "2025-12-02", 12), Self.entry(.height, 153, "2026-06-01", 12),
            Self.entry(.height, 156, "2026-12-02", 12),
        ]
        let teen = CalendarDate(parsing: "2012-05-01")!
        let rate = try #require(Growth.perYear(heights, dateOfBirth: teen, today: today))
        #expect(abs(rate - 6) < 0.02)
        #expect(
            GrowthSentences.sentence(heights: heights, dateOfBirth: teen, today: today, units: .metric)
                == "Grew 6.0 cm a year over the last year.")
        #expect(
            GrowthSentences.sentence(heights: heights, dateOfBirth: teen, today: today, units: .imperial)
                == "Grew 2.4 in a year over the last year.")
        #expect(Growth.perYear(heights, dateOfBirth: CalendarDate(parsing: "1990-01-01")!, today: today) == nil)
        #expect(Growth.perYear(heights.suffix(1), dateOfBirth: teen, today: today) == nil)
    }

    /// Today from the account: the day's sum of water, the latest reading however old, a note kept; a
    /// time in the future and a long note are refused and nothing is logged.
    @Test func todaySumsTheDayAndKeepsTheNote() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let now = harness.clock.date()
        let today = CalendarDate(containing: now, in: .utc)
        let morning = TimeOfDay(of: now.addingTimeInterval(-3_600), in: .utc)
        try await account.apply(.measurement(.water, 0.25, time: morning))
        try await account.apply(.measurement(.water, 0.5, notes: "after the run"))
        try await account.apply(.measurement(.mood, 7, day: today.adding(days: -3)))
        let days = try await account.today()
        let water = try #require(days.first { $0.metric == .water })
        #expect(water.today == 0.75 && water.latestDay == today)
        let mood = try #require(days.first { $0.metric == .mood })
        #expect(mood.today == 7 && mood.latestDay == today.adding(days: -3))
        let noted = try await account.history(of: .water, refresh: false)
        #expect(noted.contains { $0.notes == "after the run" && $0.quantity == 0.5 })

        let later = TimeOfDay(of: now.addingTimeInterval(3_600), in: .utc)
        if later > TimeOfDay(of: now, in: .utc) {
            await #expect(throws: ValidationError.outOfRange(.time, rule: .notInFuture)) {
                try await account.apply(.measurement(.water, 0.25, time: later))
            }
        }
        await #expect(throws: ValidationError.self) {
            try await account.apply(.measurement(.water, 0.25, notes: String(repeating: "n", count: 501)))
        }
        #expect(try await account.history(of: .water, refresh: false).count == 2)
    }

    /// A list's entries: the last days' only, newest first, ending on a whole day when there are more
    /// than it holds (a day's amount is their sum), unless one day alone holds more; the rest counted.
    @Test func latestEntriesEndOnAWholeDayAndCountTheRest() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        // Three glasses a day for the last three days, two long ago.
        for days in [0, 1, 2] {
            for hour in [7, 8, 9] {
                let time = TimeOfDay(hour: hour, minute: 0)
                try await account.apply(.measurement(.water, 0.25, day: today.adding(days: -days), time: time))
            }
        }
        for days in [100, 101] { try await account.apply(.measurement(.water, 0.5, day: today.adding(days: -days))) }

        let all = try await account.latestEntries(of: .water)
        #expect(all.entries.count == 9 && all.older == 2)
        #expect(all.entries.map(\.loggedAt) == all.entries.map(\.loggedAt).sorted(by: >))
        #expect(all.entries.last?.loggedAt == today.adding(days: -2).instant(atHour: 7, in: .utc))
        // Seven would cut the third day: it is left out whole.
        let seven = try await account.latestEntries(of: .water, limit: 7)
        #expect(seven.entries.count == 6 && seven.older == 5)
        #expect(seven.entries.last?.loggedAt == today.adding(days: -1).instant(atHour: 7, in: .utc))
        // Two are fewer than a day holds: the two newest.
        let two = try await account.latestEntries(of: .water, limit: 2)
        #expect(two.entries.map(\.loggedAt) == [9, 8].map { today.instant(atHour: $0, in: .utc) })
        // Two days back: today's and yesterday's.
        #expect(try await account.latestEntries(of: .water, days: 2).entries.count == 6)
    }
}
