import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

/// Activity samples become one total a metric a local day: one source's day (the one with the most),
/// a night as the union of its asleep stretches on the day it ends, and a day the history holds
/// already left as it is.
struct ActivityDaysTests {
    static let berlin = LocalZone.fixed(secondsEastOfUTC: 3_600)

    static func at(_ text: String, _ zone: LocalZone = berlin) throws -> LocalInstant {
        LocalInstant(try #require(RFC3339.parse(text)), in: zone)
    }

    @Test func twoSourcesOfOneDayAreNeverAdded() throws {
        var days = ActivityDays()
        let phone = days.source("apple-health/iPhone", app: .health)
        let watch = days.source("apple-health/Apple Watch", app: .health)
        // The phone counts 6,000 steps, the watch 5,500 of the same walk.
        for (hour, steps) in [("08", 2_000.0), ("12", 3_000), ("18", 1_000)] {
            days.add(.steps, steps, at: try Self.at("2025-03-01T\(hour):00:00+01:00"), source: phone)
        }
        days.add(.steps, 5_500, at: try Self.at("2025-03-01T09:00:00+01:00"), source: watch)
        days.add(.steps, 700, at: try Self.at("2025-03-02T09:00:00+01:00"), source: watch)

        let totals = days.totals()
        #expect(totals.map(\.day.description) == ["2025-03-01", "2025-03-02"])
        #expect(totals.map(\.value) == [6_000, 700])
        #expect(totals.map(\.source) == ["apple-health/iPhone", "apple-health/Apple Watch"])
        #expect(totals.map(\.sources) == [2, 1])
        // The entry's time is noon on the file's clock: March 1 wherever within 11 hours it is read.
        #expect(totals[0].loggedAt == RFC3339.parse("2025-03-01T12:00:00+01:00"))
    }

    @Test func aSampleBelongsToTheDayItsFileWrote() throws {
        var days = ActivityDays()
        let source = days.source("fitbit", app: .fitbit)
        // 23:30 in Berlin is 22:30 UTC: the day is Berlin's.
        days.add(.water, 0.5, at: try Self.at("2025-03-01T23:30:00+01:00"), source: source)
        days.add(.water, 0.25, at: try Self.at("2025-03-02T00:30:00+01:00"), source: source)
        #expect(days.totals().map(\.day.description) == ["2025-03-01", "2025-03-02"])
        #expect(days.totals().map(\.value) == [0.5, 0.25])
    }

    @Test func aNightIsTheUnionOfItsAsleepStretchesOnTheDayItEnds() throws {
        var days = ActivityDays()
        let watch = days.source("apple-health/Apple Watch", app: .health)
        let stretches = [
            ("2025-03-01T23:00:00+01:00", "2025-03-02T01:00:00+01:00"),  // core, before midnight
            ("2025-03-02T00:30:00+01:00", "2025-03-02T02:00:00+01:00"),  // deep, overlapping it
            ("2025-03-02T03:00:00+01:00", "2025-03-02T06:30:00+01:00"),  // REM and core, after a wake
        ]
        for (start, end) in stretches {
            days.addAsleep(from: try Self.at(start).at, to: try Self.at(end), source: watch)
        }
        let totals = days.totals()
        #expect(totals.count == 1)
        #expect(totals[0].metric == .sleep)
        #expect(totals[0].day.description == "2025-03-02")
        #expect(totals[0].value == 6.5)  // 23:00–02:00 and 03:00–06:30
        #expect(totals[0].loggedAt == RFC3339.parse("2025-03-02T06:30:00+01:00"))
    }

    @Test func anAfternoonNapIsItsOwnDaysAndAnEveningStretchIsTomorrowsNight() throws {
        var days = ActivityDays()
        let watch = days.source("w", app: .health)
        days.addAsleep(
            from: try Self.at("2025-03-01T14:00:00+01:00").at, to: try Self.at("2025-03-01T15:00:00+01:00"),
            source: watch)
        days.addAsleep(
            from: try Self.at("2025-03-01T22:00:00+01:00").at, to: try Self.at("2025-03-01T23:30:00+01:00"),
            source: watch)
        days.addAsleep(
            from: try Self.at("2025-03-02T00:00:00+01:00").at, to: try Self.at("2025-03-02T07:00:00+01:00"),
            source: watch)
        let totals = days.totals()
        #expect(totals.map(\.day.description) == ["2025-03-01", "2025-03-02"])
        #expect(totals.map(\.value) == [1, 8.5])
    }

    @Test func aReadingIsTheDaysLatest() throws {
        var days = ActivityDays()
        let one = days.source("a", app: .garmin)
        let two = days.source("b", app: .garmin)
        days.add(.restingHeartRate, 60, at: try Self.at("2025-03-01T08:00:00+01:00"), source: one)
        days.add(.restingHeartRate, 57, at: try Self.at("2025-03-01T09:00:00+01:00"), source: two)
        days.add(.restingHeartRate, 58, at: try Self.at("2025-03-01T07:00:00+01:00"), source: two)
        #expect(days.totals().map(\.value) == [57])
    }

    @Test func filesOfOneImportMergeByTheirSourcesNames() throws {
        var first = ActivityDays()
        first.add(.steps, 100, at: try Self.at("2025-03-01T08:00:00+01:00"), source: first.source("x", app: .fitbit))
        var second = ActivityDays()
        _ = second.source("unused", app: .fitbit)
        second.add(.steps, 50, at: try Self.at("2025-03-01T09:00:00+01:00"), source: second.source("x", app: .fitbit))
        second.add(.steps, 120, at: try Self.at("2025-03-01T09:00:00+01:00"), source: second.source("y", app: .fitbit))
        first.merge(second)
        // x's 150 stands over y's 120: the same source's files add up, two sources never.
        #expect(first.totals().map(\.value) == [150])
        #expect(first.totals().map(\.source) == ["x"])
    }

    @Test func aDayTheHistoryHoldsIsLeftAsItIsAndASecondImportAddsNothing() async throws {
        let harness = TestHarness(timeZone: Self.berlin)
        let account = try await harness.synced()
        // The user typed 3,000 steps on March 1 (Berlin).
        _ = try await account.apply(.measurement(.steps, 3_000, day: CalendarDate(year: 2025, month: 3, day: 1)))
        var days = ActivityDays()
        let app = days.source("fitbit", app: .fitbit)
        for day in 1...3 {
            days.add(.steps, 8_000, at: try Self.at("2025-03-0\(day)T10:00:00+01:00"), source: app)
        }
        days.add(.steps, 150_000, at: try Self.at("2025-03-04T10:00:00+01:00"), source: app)
        var file = FileReadings(format: "fitbit", source: .fitbit)
        file.activity = days
        let files = [ImportedFile(name: "steps.json", file: file)]

        let preview = try await account.apply(.importFiles(files, preview: true))
        guard case .imported(let previewed, _) = preview.outcome else { throw Unexpected.outcome }
        #expect(previewed[.steps].read == 4)
        #expect(previewed[.steps].new == 2)
        #expect(previewed[.steps].alreadyThere == 1)
        #expect(previewed[.steps].refused == 1)

        let first = try await account.apply(.importFiles(files))
        guard case .imported(let imported, _) = first.outcome else { throw Unexpected.outcome }
        #expect(imported[.steps].new == 2)
        let steps = try await harness.store(of: account).load().history.filter { $0.type == Metric.steps.type }
        #expect(steps.map(\.quantity).sorted() == [3_000, 8_000, 8_000])
        #expect(steps.filter { $0.quantity == 8_000 }.allSatisfy { $0.source == .fitbit })

        let again = try await account.apply(.importFiles(files))
        guard case .imported(let second, _) = again.outcome else { throw Unexpected.outcome }
        #expect(second[.steps].new == 0)
        #expect(second[.steps].alreadyThere == 3)
        #expect(second.queuedAnything == false)
    }

    enum Unexpected: Error { case outcome }
}
