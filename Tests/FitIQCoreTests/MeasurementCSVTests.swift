import FitIQCore
import Foundation
import Testing

/// CSV files in: the header decides the format; each bad row is named by its line and rule.
struct MeasurementCSVTests {
    @Test func openScalesExportGivesWeightAndFatAndNamesTheColumnsLeftOut() throws {
        let text = """
            "dateTime","weight","fat","water","muscle"
            "01.03.2025 07:45","80.2","18.5","55.0","40.1"
            "02.03.2025 07:50","79.9","0.0","0.0","0.0"
            """
        let csv = try MeasurementCSV.read(text, zone: .utc)
        #expect(csv.format == .openScale)
        #expect(csv.skippedColumns == ["water", "muscle"])
        #expect(csv.readings.map(\.metric) == [.weight, .bodyFat, .weight])
        #expect(csv.readings.map(\.value) == [80.2, 18.5, 79.9])
        #expect(csv.readings.first.map { RFC3339.format($0.loggedAt) } == "2025-03-01T07:45:00Z")
        #expect(csv.problems.isEmpty)
    }

    @Test func aByteOrderMarkCRLFSemicolonsAndQuotesAreRead() throws {
        let text = "\u{FEFF}Date;Weight\r\n2025-03-01;\"80,5\"\r\n2025-03-02;81\r\n"
        let csv = try MeasurementCSV.read(text, zone: .fixed(secondsEastOfUTC: 3_600))
        #expect(csv.format == .dateWeight)
        #expect(csv.readings.map(\.value) == [80.5, 81])
        // A date without a time is logged at 12:00 local time.
        #expect(csv.readings.first.map { RFC3339.format($0.loggedAt) } == "2025-03-01T11:00:00Z")
    }

    @Test func poundsAreConvertedForAPlainFile() throws {
        let csv = try MeasurementCSV.read("date,weight\n2025-03-01,176.4\n", unit: "lb", zone: .utc)
        #expect(csv.readings.map(\.value) == [80.01])
    }

    @Test func badRowsAreNamedByTheirLineAndRule() throws {
        let text = """
            logged_at,metric,value,unit,source,id
            2025-03-01T12:00:00+00:00,weight,80.00,kg,manual,a
            yesterday,weight,80.00,kg,manual,b
            2025-03-01T12:00:00+00:00,weight,9000,kg,manual,c
            2025-03-01T12:00:00+00:00,steps,10,count,manual,d
            2025-03-01T12:00:00+00:00,weight,80,cm,manual,e
            2025-03-01T12:00:00+00:00,bmi,24.7,kg/m²,derived,a
            "2025-03-01T12:00:00+00:00,weight
            """
        let csv = try MeasurementCSV.read(text, zone: .utc)
        #expect(csv.readings.count == 1)
        #expect(csv.derivedRowsSkipped == 1)
        #expect(
            csv.problems.map(\.description) == [
                "line 3: logged_at must be an RFC 3339 time",
                "line 4: Weight must be between 2 and 635 kg (4.4 and 1,400 lb).",
                "line 5: metric must be height, weight or body_fat_percentage",
                "line 6: unit cm is not one of weight's",
                "line 8: has 1 fields; the header has 6",
            ])
    }

    @Test func anUnknownHeaderIsRefusedNamingTheFormatsRead() {
        #expect(throws: ImportError.self) { try MeasurementCSV.read("when,kilos\n1,2\n", zone: .utc) }
        do {
            _ = try MeasurementCSV.read("when,kilos\n", zone: .utc)
        } catch {
            #expect(error.description.contains("\"when,kilos\" is not one of the formats read"))
            #expect(error.description.contains("openScale"))
        }
        #expect(throws: ImportError.empty) { try MeasurementCSV.read("", zone: .utc) }
    }
}
