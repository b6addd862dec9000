import FitIQCore
import FitIQWords
import Foundation
import Testing

@testable import FitIQImport

/// Inputs the fuzz targets of the readers (Fuzz/Targets: health-xml, csv, app-json) found, each kept inline.
struct FuzzRegressionTests {
    /// A Height record of 1e308 ft passed the finite check before conversion and became an infinite
    /// height in the snapshot (the import then counted it out of range, but the reader promised
    /// numbers). A value that overflows in conversion is skipped like any other that is no number.
    @Test func aHeightThatOverflowsInConversionIsNotRead() throws {
        let document = #"""
            <HealthData><Record type="HKQuantityTypeIdentifierHeight" unit="ft" startDate="2025-05-01 19:30:00 -0500" value="1e308"/><Record type="HKQuantityTypeIdentifierHeight" unit="cm" startDate="2025-05-02 19:30:00 -0500" value="171"/></HealthData>
            """#
        let parser = try HealthXMLParser(fileName: "export.xml")
        try Data(document.utf8).withUnsafeBytes { try parser.feed($0) }
        let snapshot = try parser.finish()
        #expect(snapshot.samples(of: .height).map(\.value) == [171])
        #expect(HealthValueMapping.centimetres(value: "1e308", unit: "ft") == nil)
        #expect(HealthValueMapping.centimetres(value: "1.7e308", unit: "m") == nil)
        let feet = try #require(HealthValueMapping.centimetres(value: "5.5", unit: "ft"))
        #expect(abs(feet - 167.64) < 1e-9)
    }

    /// A CSV row with `202025-03-01T12:00:00+01:00` (the `csv` target, its first run in `make check`)
    /// was imported as a reading in the year 202025: Foundation's ISO 8601 parser reads any number of
    /// year digits. RFC 3339 has four, and the reading is refused with the rule, naming its line.
    @Test func aYearOfMoreThanFourDigitsIsNotRFC3339() throws {
        let text = "logged_at,metric,value,unit,source,id\r\n202025-03-01T12:00:00+01:00,weight,80.20,kg,manual,a\r\n"
        let csv = try TableReader.read(text, ImportOptions(zone: .fixed(secondsEastOfUTC: 3_600)))
        #expect(csv.readings.isEmpty)
        #expect(csv.badRows.map(\.line) == [2])
        #expect(csv.badRows.first?.rule == .loggedAt)
        #expect(csv.badRows.first?.description == "line 2: logged_at must be an RFC 3339 time")
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
        let file = try ExportFormat.garmin.read(json: Data(text.utf8), ImportOptions(zone: .utc))
        #expect(file.readings.isEmpty)
        #expect(file.badRows.map(\.description) == ["entry 1: the time is not one this format writes"])
    }
}
