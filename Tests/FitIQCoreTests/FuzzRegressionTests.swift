import FitIQCore
import FitIQWords
import Foundation
import Testing

/// Inputs the fuzz targets (Fuzz/Targets) found, each kept as it was found.
struct FuzzRegressionTests {
    /// A server answer with `"height_cm":1e300` (the `wire` target) made `Height.format` trap in
    /// imperial units: whole inches beyond `Int`. Heights reach it from the server and the cache
    /// unchecked, so it shows any value, in centimetres when inches cannot hold it.
    @Test(arguments: [
        (1e300, "1e+300 cm"), (-1e300, "-1e+300 cm"), (Double.infinity, "inf cm"), (-Double.infinity, "-inf cm"),
        (Double.nan, "nan cm"), (2.4e19, "2.4e+19 cm"),
    ])
    func heightsBeyondWholeInchesAreShownInCentimetres(centimetres: Double, shown: String) {
        #expect(Height.format(centimetres, unitSystem: .imperial) == shown)
        #expect(Height.format(centimetres, unitSystem: .metric) == shown)
    }

    @Test func heightsStillShowInFeetAndInches() {
        #expect(Height.format(180.34, unitSystem: .imperial) == "5 ft 11 in")
        #expect(Height.format(2.54e14, unitSystem: .imperial) == "8333333333333 ft 4 in")
    }

    /// A CSV row with `202025-03-01T12:00:00+01:00` (the `csv` target, its first run in `make check`)
    /// was imported as a reading in the year 202025: Foundation's ISO 8601 parser reads any number of
    /// year digits. RFC 3339 has four, and the reading is refused with the rule, naming its line.
    @Test func aYearOfMoreThanFourDigitsIsNotRFC3339() throws {
        let text = "logged_at,metric,value,unit,source,id\r\n202025-03-01T12:00:00+01:00,weight,80.20,kg,manual,a\r\n"
        let csv = try MeasurementCSV.read(text, unit: nil, zone: .fixed(secondsEastOfUTC: 3_600))
        #expect(csv.readings.isEmpty)
        #expect(csv.problems.map(\.line) == [2])
        #expect(csv.problems.first?.rule == .loggedAt)
        #expect(csv.problems.first?.description == "line 2: logged_at must be an RFC 3339 time")
        for refused in [
            "202025-03-01T12:00:00Z", "12025-03-01T12:00:00Z", "925-03-01T12:00:00Z", "+2025-03-01T12:00:00Z",
        ] {
            #expect(RFC3339.parse(refused) == nil, "\(refused)")
        }
        #expect(RFC3339.parse("2025-03-01T12:00:00Z") == Date(timeIntervalSince1970: 1_740_830_400))
        #expect(RFC3339.parse("2025-03-01T12:00:00.250+01:00") == Date(timeIntervalSince1970: 1_740_826_800.25))
        #expect(RFC3339.parse("2025-03-01T12:00:00.Z") == nil)
    }

    /// Garmin's `timestampGMT` of 1709280000 followed by 60 sevens (the `app-json` target, its first
    /// minute) became a reading some 10^50 years away. A number of milliseconds past year 9999 is no
    /// time: the entry is named with the rule.
    @Test func aGarminTimestampOfManyDigitsIsNoTime() throws {
        let stamp = "1709280000" + String(repeating: "7", count: 60)
        let text = "[{\"weight\": {\"weight\": 81300.0, \"timestampGMT\": \(stamp)}}]"
        let file = try MeasurementJSON.read(Data(text.utf8), format: .garmin, .init(zone: .utc))
        #expect(file.readings.isEmpty)
        #expect(file.problems.map(\.description) == ["entry 1: the time is not one this format writes"])
    }
}
