import Foundation
import Testing

@testable import FitIQDevServer

struct TimestampTests {
    @Test(arguments: [
        ("2024-01-15T08:00:00Z", "2024-01-15T08:00:00Z"),
        ("2024-01-15T10:00:00+02:00", "2024-01-15T08:00:00Z"),
        ("2024-01-15t08:00:00.5z", "2024-01-15T08:00:00.500Z"),
        ("2024-01-14T23:30:00.123456-05:00", "2024-01-15T04:30:00.123Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
    ])
    func parsesAndFormatsRFC3339(input: String, expected: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: input))
        #expect(timestamp.rfc3339 == expected)
    }

    @Test(arguments: ["2024-01-15", "2024-01-15T25:00:00Z", "2024-02-30T00:00:00Z", "2024-01-15T08:00:00", "x"])
    func rejectsWhatIsNotRFC3339(input: String) {
        #expect(Timestamp(rfc3339: input) == nil)
    }

    @Test func calendarDatesRoundTripThroughDayNumbers() throws {
        // From 0001-01-01 to 9999-12-31, the years the server accepts.
        for days in stride(from: -719_162, through: 2_932_896, by: 997) {
            let date = CalendarDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            #expect(CalendarDate(iso: date.description) == date)
        }
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2023-02-29") == nil)
    }

    @Test(arguments: [
        ("2013-03-10", 13), ("2013-03-11", 12), ("1990-04-12", 35), ("2000-02-29", 26),
    ])
    func agesCountWholeYears(birth: String, age: Int) throws {
        let today = try #require(CalendarDate(iso: "2026-03-10"))
        #expect(try #require(CalendarDate(iso: birth)).age(on: today) == age)
    }
}
