import FitIQCore
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQImport

/// fitiq-tui's own exports read back: `export --json` is told by its content and gives every entry as
/// `export --csv` does (type, value in the metric's unit, time, source and note); its derived BMI rows
/// and goals are left out, and each bad entry is named by its number and rule.
struct FitIQExportReaderTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fitiq-export.json")

    static func read(json text: String) throws -> FileReadings {
        try ExportFormat.fitiqJSON.read(json: Data(text.utf8), ImportOptions(zone: .utc))
    }

    static func instant(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }

    @Test func anExportIsReadWholeWithItsUnitsSourcesAndNotes() throws {
        let files = try ExportWalk().read(
            Self.fixture.path, format: nil, options: ImportOptions(zone: .utc), heightCm: nil)
        let file = try #require(files.first?.file)
        #expect(files.count == 1 && file.format == "fitiq-json")
        #expect(file.badRows.isEmpty)
        #expect(file.readings.map(\.metric) == [.height, .weight, .bodyFat, .water, .sleep, .recordedBMI])
        // 179.23 lb (`--units imperial`) is 81.3 kg, kept to a hundredth.
        #expect(file.readings.map(\.value) == [180, 81.3, 18.5, 0.25, 7.5, 24.8])
        #expect(file.readings.map(\.source) == [.manual, .withings, .server, .manual, .health, .server])
        #expect(
            file.readings.map(\.notes) == [
                nil, "after the run, \"fasted\"", nil, "tea, with milk ☕", nil, "from the clinic's scale",
            ])
        #expect(file.readings[1].loggedAt == (try Self.instant("2025-07-15T05:30:00Z")))
        #expect(file.readings.map(\.line) == [1, 2, 3, 4, 5, 7])
        // The BMI derived from a weight comes back with the weight; the goal stays on its machine.
        #expect(file.derivedRowsSkipped == 1 && file.goalRowsSkipped == 1)
    }

    /// The same entries written as CSV read the same: one reader of an entry for both.
    @Test func theJSONAndTheCSVOfOneExportGiveTheSameReadings() throws {
        let rows = [
            ("2025-07-15T07:30:00+02:00", "weight", "179.23", "lb", "withings", "after the run, \"\"fasted\"\""),
            ("2025-07-14T09:00:00+02:00", "bmi", "24.80", "kg/m²", "server", "from the clinic's scale"),
            ("2025-07-15T07:30:00+02:00", "bmi", "25.09", "kg/m²", "derived", ""),
        ]
        let csv = try TableReader.read(
            "logged_at,metric,value,unit,source,id,notes\r\n"
                + rows.map { "\($0.0),\($0.1),\($0.2),\($0.3),\($0.4),x,\"\($0.5)\"\r\n" }.joined(),
            ImportOptions(zone: .utc))
        let json = try Self.read(
            json: "["
                + rows.map { row in
                    "{\"logged_at\": \"\(row.0)\", \"metric\": \"\(row.1)\", \"value\": \(row.2), "
                        + "\"unit\": \"\(row.3)\", \"source\": \"\(row.4)\", \"id\": \"x\", "
                        + "\"notes\": \"\(row.5.replacing("\"\"", with: "\\\""))\"}"
                }.joined(separator: ",\n") + "]")
        #expect(csv.format == "fitiq" && json.format == "fitiq-json")
        #expect(json.readings.count == 2 && json.derivedRowsSkipped == 1)
        let strip = { (reading: Reading) in [reading.metric.type, "\(reading.value)", "\(reading.loggedAt)"] }
        #expect(json.readings.map(strip) == csv.readings.map(strip))
        #expect(json.readings.map(\.notes) == csv.readings.map(\.notes))
        #expect(json.readings.map(\.source) == csv.readings.map(\.source))
    }

    @Test func eachBadEntryIsNamedByItsNumberAndRule() throws {
        let file = try Self.read(
            json: """
                [
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "value": 80, "unit": "kg", "source": "manual"},
                  {"logged_at": "yesterday", "metric": "weight", "value": 80, "unit": "kg", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "value": 9000, "unit": "kg", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "naps", "value": 3, "unit": "", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "value": 80, "unit": "cm", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "value": "80", "unit": "kg", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "unit": "kg", "source": "manual"},
                  {"logged_at": 1740830400, "metric": "weight", "value": 80, "unit": "kg", "source": "manual"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "bmi", "value": 0, "unit": "kg/m²", "source": "server"},
                  {"logged_at": "2025-03-01T12:00:00Z", "metric": "weight", "value": 80, "unit": "kg", "notes": ["a"]},
                  [1, 2],
                  {"logged_at": "2025-13-40T12:00:00Z", "metric": "steps", "value": 4000, "unit": "steps", "source": "manual"},
                  {"logged_at": "2025-03-02T12:00:00Z", "metric": "mood_score", "value": 7, "unit": "", "source": null, "notes": null}
                ]
                """)
        #expect(file.readings.map(\.line) == [1, 13])
        #expect(file.readings.last?.source == nil && file.readings.last?.notes == nil)
        #expect(
            file.badRows.map(\.description) == [
                "entry 2: logged_at must be an RFC 3339 time",
                "entry 3: Weight must be between 2 and 635 kg (4.4 and 1,400 lb).",
                "entry 4: metric must be one of " + Metric.recorded.map(\.type).joined(separator: ", "),
                "entry 5: unit cm is not one of weight's",
                "entry 6: Weight must be a number",
                "entry 7: Weight must be a number",
                "entry 8: logged_at must be text",
                "entry 9: BMI must be between 1 and 250 kg/m².",
                "entry 10: notes must be text",
                "entry 11: metric must be one of " + Metric.recorded.map(\.type).joined(separator: ", "),
                "entry 12: logged_at must be an RFC 3339 time",
            ])
    }

    /// Told by what it holds, never by its name; a document of another shape is no export of ours.
    @Test func anExportIsToldByItsContent() throws {
        let head = { (text: String) in
            ExportFormat.recognising(head: Array(text.utf8), name: "anything.txt")?.name
        }
        let row = "{\"logged_at\": \"2025-03-01T12:00:00Z\", \"metric\": \"weight\", \"value\": 80, \"unit\": \"kg\""
        #expect(
            head("\n[\n  " + row + ", \"source\": \"manual\", \"id\": \"a\", \"notes\": \"\"}\n]\n") == "fitiq-json")
        #expect(head("{\"rows\": [" + row + ", \"source\": \"manual\"}]}") == nil)
        #expect(head("[{\"logged_at\": \"2025-03-01T12:00:00Z\", \"weight\": 80}]") == nil)
        // A broken document of the shape is refused whole, naming where it broke.
        let error = #expect(throws: ImportError.self) { try Self.read(json: "[" + row + ", \"source\": ") }
        #expect(error.map { if case .unreadableJSON = $0 { true } else { false } } == true)
    }
}
