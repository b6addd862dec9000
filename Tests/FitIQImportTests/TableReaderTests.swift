import FitIQCore
import FitIQWords
import Foundation
import Testing

@testable import FitIQImport

/// CSV files in: the header decides the format; each bad row is named by its line and rule.
struct TableReaderTests {
    @Test func openScalesExportGivesWeightAndFatAndNamesTheColumnsLeftOut() throws {
        let text = """
            "dateTime","weight","fat","water","muscle"
            "01.03.2025 07:45","80.2","18.5","55.0","40.1"
            "02.03.2025 07:50","79.9","0.0","0.0","0.0"
            """
        let csv = try TableReader.read(text, ImportOptions(zone: .utc))
        #expect(csv.format == ExportFormat.openScale.name)
        #expect(csv.skippedColumns == ["water", "muscle"])
        #expect(csv.readings.map(\.metric) == [.weight, .bodyFat, .weight])
        #expect(csv.readings.map(\.value) == [80.2, 18.5, 79.9])
        #expect(csv.readings.first.map { RFC3339.format($0.loggedAt) } == "2025-03-01T07:45:00Z")
        #expect(csv.badRows.isEmpty)
    }

    @Test func aByteOrderMarkCRLFSemicolonsAndQuotesAreRead() throws {
        let text = "\u{FEFF}Date;Weight\r\n2025-03-01;\"80,5\"\r\n2025-03-02;81\r\n"
        let csv = try TableReader.read(text, ImportOptions(zone: .fixed(secondsEastOfUTC: 3_600)))
        #expect(csv.format == ExportFormat.dateWeight.name)
        #expect(csv.readings.map(\.value) == [80.5, 81])
        // A date without a time is logged at 12:00 local time.
        #expect(csv.readings.first.map { RFC3339.format($0.loggedAt) } == "2025-03-01T11:00:00Z")
    }

    @Test func poundsAreConvertedForAPlainFile() throws {
        let csv = try TableReader.read("date,weight\n2025-03-01,176.4\n", ImportOptions(unit: "lb", zone: .utc))
        #expect(csv.readings.map(\.value) == [80.01])
    }

    @Test func badRowsAreNamedByTheirLineAndRule() throws {
        let text = """
            logged_at,metric,value,unit,source,id
            2025-03-01T12:00:00+00:00,weight,80.00,kg,manual,a
            yesterday,weight,80.00,kg,manual,b
            2025-03-01T12:00:00+00:00,weight,9000,kg,manual,c
            2025-03-01T12:00:00+00:00,naps,10,count,manual,d
            2025-03-01T12:00:00+00:00,weight,80,cm,manual,e
            2025-03-01T12:00:00+00:00,bmi,24.7,kg/m²,derived,a
            "2025-03-01T12:00:00+00:00,weight
            """
        let csv = try TableReader.read(text, ImportOptions(zone: .utc))
        #expect(csv.readings.count == 1)
        #expect(csv.derivedRowsSkipped == 1)
        #expect(
            csv.badRows.map(\.description) == [
                "line 3: logged_at must be an RFC 3339 time",
                "line 4: Weight must be between 2 and 635 kg (4.4 and 1,400 lb).",
                "line 5: metric must be one of " + Metric.recorded.map(\.type).joined(separator: ", "),
                "line 6: unit cm is not one of weight's",
                "line 8: has 1 fields; the header has 6",
            ])
    }

    @Test func anUnknownHeaderIsRefusedNamingTheFormatsRead() {
        for text in ["when,kilos\n1,2\n", "when,kilos\n"] {
            let error = #expect(throws: ImportError.self) { try TableReader.read(text, ImportOptions(zone: .utc)) }
            #expect(error?.description.contains("\"when,kilos\" is not one of the formats read") == true)
            #expect(error?.description.contains("openScale") == true)
        }
        #expect(throws: ImportError.empty) { try TableReader.read("", ImportOptions(zone: .utc)) }
    }

    /// A file read in pieces, as `import-csv` reads it, gives what the whole text gives, wherever the
    /// pieces split it: in a CRLF, a quoted field with a line break, a byte-order mark or a character.
    @Test(arguments: [1, 2, 3, 7, 64, 1 << 16])
    func piecesOfAnySizeReadAsTheWholeText(size: Int) throws {
        let text =
            "\u{FEFF}logged_at,metric,value,unit,source,id\r\n"
            + "2025-03-01T07:45:00+01:00,weight,80.20,kg,manual,\"a\r\nb\"\r\n"
            + "2025-03-02T07:45:00+01:00,body_fat_percentage,18.50,%,health,ü李🏃\r\n"
            + "2025-03-03T07:45:00+01:00,weight,x,kg,manual,c\r\n" + "2025-03-04T07:45:00+01:00,height,180,cm,import,d"
        let whole = try TableReader.read(text, ImportOptions(zone: .utc))
        #expect(whole.readings.count == 3)
        #expect(whole.badRows.map(\.description) == ["line 5: Weight must be a number"])
        var reader = TableReader(ImportOptions(zone: .utc))
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try reader.read(bytes[start..<min(start + size, bytes.count)])
        }
        #expect(try reader.finish() == whole)
    }

    /// A 100 MB line is not kept: the reader holds at most the limit of a row, and names the line.
    @Test func aRowLongerThanTheLimitIsNamedAndNotKept() throws {
        var reader = TableReader(ImportOptions(zone: .utc))
        try reader.read("date,weight\n2025-03-01,80.5\n2025-03-02,".utf8)
        let piece = [UInt8](repeating: UInt8(ascii: "9"), count: 1 << 20)
        for _ in 0..<8 { try reader.read(piece) }
        try reader.read("\n2025-03-03,81\n".utf8)
        let csv = try reader.finish()
        #expect(csv.readings.map(\.value) == [80.5, 81])
        #expect(csv.badRows.map(\.description) == ["line 3: a row must be at most 4096 bytes long"])
    }

    @Test func aRowThatIsNotUTF8IsNamedAndTheOthersAreRead() throws {
        var reader = TableReader(ImportOptions(zone: .utc))
        try reader.read(Array("date,weight\n2025-03-01,80.5\n2025-03-02,8".utf8) + [0xFF, 0xFE] + Array("1\n".utf8))
        try reader.read("2025-03-03,81\n".utf8)
        let csv = try reader.finish()
        #expect(csv.readings.map(\.value) == [80.5, 81])
        #expect(csv.badRows.map(\.description) == ["line 3: a row must be UTF-8 text"])
    }

    /// The sample files in `Fixtures/`, written by hand from each format's documented columns.
    static func fixture(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// openScale: every field quoted, CRLF, `dd.MM.yyyy HH:mm`, `0.0` for no value, a comment with a
    /// quote and a separator inside.
    @Test func openScalesSampleExportIsReadWithItsColumnsLeftOutNamed() throws {
        let csv = try TableReader.read(
            try Self.fixture("openscale-export.csv"), ImportOptions(zone: .fixed(secondsEastOfUTC: 3_600)))
        #expect(csv.format == ExportFormat.openScale.name)
        #expect(csv.badRows.isEmpty)
        #expect(csv.skippedColumns == ["water", "muscle", "lbm", "bone", "waist", "hip", "comment"])
        #expect(csv.readings.map(\.metric) == [.weight, .bodyFat, .weight, .weight, .bodyFat])
        #expect(csv.readings.map(\.value) == [82.35, 21.4, 82.1, 82.6, 21.6])
        // Local time (UTC+1 here) with the minute kept.
        #expect(csv.readings.map { RFC3339.format($0.loggedAt) }.last == "2025-11-06T20:40:00Z")
    }

    /// wger's weight export: `Date,Weight`, dates without a time logged at 12:00 local time.
    @Test func wgersSampleExportIsReadAsWeightsAtNoon() throws {
        let csv = try TableReader.read(try Self.fixture("wger-weight-export.csv"), ImportOptions(zone: .utc))
        #expect(csv.format == ExportFormat.dateWeight.name)
        #expect(csv.badRows.isEmpty)
        #expect(csv.readings.map(\.value) == [82.4, 81.9, 81.7])
        #expect(csv.readings.map { RFC3339.format($0.loggedAt) }.first == "2025-11-01T12:00:00Z")
    }
}
