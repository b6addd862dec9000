import FitIQCore
import Foundation
import Testing

struct CalendarDateTests {
    static let zones = ["Pacific/Kiritimati", "Etc/GMT+12", "Europe/Berlin", "America/Sao_Paulo", "UTC"]
    static let inputs = ["1983-07-20", "1983-07-20T00:00:00Z", "1983-07-20T23:30:00-05:00"]

    @Test(arguments: inputs, zones)
    func keepsTheWrittenDayInEveryTimeZone(input: String, zone: String) throws {
        let timeZone = LocalZone(try #require(TimeZone(identifier: zone)))
        let date = try #require(CalendarDate(parsing: input))
        #expect(date.description == "1983-07-20")
        // Through an instant in that zone and back: still July 20.
        for hour in [0, 12, 23] {
            #expect(CalendarDate(containing: date.instant(atHour: hour, in: timeZone), in: timeZone) == date)
        }
        // And through JSON, as the cache stores it.
        let decoded = try JSONDecoder().decode(CalendarDate.self, from: JSONEncoder().encode(date))
        #expect(decoded == date)
    }

    @Test(arguments: [
        "1983-02-30", "83-7-20", "", "1983-7-20", "1983-07-20T", "1983-13-01", "abcd-ef-gh", "1983-07-20 junk",
    ])
    func rejectsInvalidDates(input: String) {
        #expect(CalendarDate(parsing: input) == nil)
    }

    @Test func acceptsLeapDaysOnlyInLeapYears() {
        #expect(CalendarDate(parsing: "2024-02-29") != nil)
        #expect(CalendarDate(parsing: "2023-02-29") == nil)
        #expect(CalendarDate(parsing: "2000-02-29") != nil)
        #expect(CalendarDate(parsing: "1900-02-29") == nil)
    }

    @Test func countsWholeYearsForAges() throws {
        let birth = try #require(CalendarDate(parsing: "2000-07-20"))
        #expect(birth.years(until: try #require(CalendarDate(parsing: "2013-07-19"))) == 12)
        #expect(birth.years(until: try #require(CalendarDate(parsing: "2013-07-20"))) == 13)
    }

    @Test func addsDaysAcrossMonthEnds() throws {
        let date = try #require(CalendarDate(parsing: "2024-02-28"))
        #expect(date.adding(days: 1).description == "2024-02-29")
        #expect(date.adding(days: 2).description == "2024-03-01")
        #expect(date.adding(days: -59).description == "2023-12-31")
    }
}
