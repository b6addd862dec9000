import FitIQTestSupport
import Foundation
import Testing

/// `fitiq-tui import` of our own `export --json`, against the development server: every entry of every
/// metric comes back on a second account as it was (its time, value, unit, source and note, a BMI the
/// server held among them), and a bad entry is named with its rule and nothing is posted.
@Suite(.timeLimit(.minutes(3)))
struct ImportJSONCLITests {
    /// An entry of every metric, each through the command a person uses, one with a note.
    static let everyMetric: [[String]] = [
        ["height", "set", "180 cm", "--date", "2025-01-10"], ["log", "weight", "81.3", "--date", "2025-07-15"],
        ["log", "body-fat", "18.5", "--date", "2025-07-16", "--note", "scale \"B\""],
        ["log", "steps", "4,000", "--date", "2025-07-16"], ["log", "distance", "5.2", "km", "--date", "2025-07-16"],
        ["log", "active-minutes", "45", "--date", "2025-07-16"],
        ["log", "calories-out", "2300", "--date", "2025-07-16"],
        ["log", "water", "0.25", "--date", "2025-07-16", "--at", "09:15", "--note", "tea, with milk"],
        ["log", "calories-in", "9600", "kJ", "--date", "2025-07-16"], ["log", "protein", "30", "--date", "2025-07-16"],
        ["log", "carbs", "200", "g", "--date", "2025-07-16"], ["log", "fat", "70", "--date", "2025-07-16"],
        ["log", "sleep", "7:30", "--date", "2025-07-17"], ["log", "resting-heart-rate", "58", "--date", "2025-07-17"],
        ["log", "mood", "7", "--date", "2025-07-17", "--note", "good day ☀"],
    ]

    /// The rows of an export as comparable text, without the ids (each account's own), sorted.
    static func entries(_ rows: [[String: Any]]) -> [String] {
        rows.map { row in
            row.filter { $0.key != "id" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: " ")
        }.sorted()
    }

    @Test func anExportAsJSONImportsIntoASecondAccountAsItWas() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // Given an entry of every metric, a BMI another app posted, and a goal set here.
                for words in Self.everyMetric {
                    let run = try await cli.run(words + ["--no-sync"])
                    #expect(run.status == 0, "\(words): \(run)")
                }
                try await RecordedBMICLITests.postBMI(server)
                #expect(try await cli.run(["goal", "set", "weight", "75"]).status == 0)
                #expect(try await cli.run(["sync", "--wait"]).status == 0)
                let exported = try await cli.jsonRows(["export", "--json"])
                let types = Set(exported.compactMap { $0["metric"] as? String })
                #expect(types.count == 16, "every type the server records: \(types.sorted())")
                #expect(exported.contains { $0["metric"] as? String == "bmi" && $0["source"] as? String == "server" })
                let file = cli.folder.appendingPathComponent("measurements.json")
                try Data(try await cli.run(["export", "--json"]).stdout.utf8).write(to: file)

                // When a second account imports it.
                var other = cli
                for (variable, name) in [
                    ("XDG_DATA_HOME", "second-data"), ("XDG_STATE_HOME", "second-state"),
                    ("XDG_CONFIG_HOME", "second-config"),
                ] {
                    other.runner.environment[variable] = cli.folder.appendingPathComponent(name).path
                }
                #expect(try await other.register("second@example.com").status == 0)
                let imported = try await other.run(["import", file.path])
                #expect(imported.status == 0, "\(imported)")
                #expect(imported.stdout.contains("measurements.json: fitiq-tui's JSON export"), "\(imported)")
                #expect(imported.stdout.contains("Weights: 1 read, 1 new, 0 already there."), "\(imported)")
                #expect(imported.stdout.contains("BMI: 1 read, 1 new, 0 already there."), "\(imported)")
                #expect(imported.stdout.contains("Skipped 1 BMI row: BMI is derived"), "\(imported)")
                #expect(imported.stdout.contains("Skipped 1 goal row"), "\(imported)")
                #expect(try await other.run(["sync", "--wait"]).status == 0)

                // Then its export holds the same entries, goals aside, and so does its server.
                let again = try await other.jsonRows(["export", "--json"])
                let entries = exported.filter { $0["source"] as? String != "goal" }
                #expect(Self.entries(again) == Self.entries(entries))
                let token = try await server.accessToken(email: "second@example.com", password: CLIHarness.password)
                for type in types {
                    let values = entries.filter {
                        $0["metric"] as? String == type && $0["source"] as? String != "derived"
                    }
                    .compactMap { $0["value"] as? Double }
                    #expect(try await server.quantities(of: type, token: token).sorted() == values.sorted(), "\(type)")
                }
                // And importing it again adds nothing.
                let twice = try await other.run(["import", file.path])
                #expect(twice.stdout.contains("BMI: 1 read, 0 new, 1 already there."), "\(twice)")
                #expect(!twice.stdout.contains(" 1 new"), "\(twice)")
            }
        }
    }

    @Test func aBadEntryIsNamedWithItsRuleAndNothingIsPosted() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let file = cli.folder.appendingPathComponent("edited.json")
                try Data(
                    """
                    [
                      {"logged_at": "2025-03-01T12:00:00+01:00", "metric": "weight", "value": 80.5, "unit": "kg", "source": "manual", "id": "a", "notes": ""},
                      {"logged_at": "2025-03-02T12:00:00+01:00", "metric": "weigth", "value": 80.1, "unit": "kg", "source": "manual", "id": "b", "notes": ""},
                      {"logged_at": "2025-03-03T12:00:00+01:00", "metric": "weight", "value": 9000, "unit": "kg", "source": "manual", "id": "c", "notes": ""},
                      {"logged_at": "2025-02-30T12:00:00+01:00", "metric": "weight", "value": 80.2, "unit": "kg", "source": "manual", "id": "d", "notes": ""},
                      {"logged_at": "2025-03-05T12:00:00+01:00", "metric": "water_liters", "value": "lots", "unit": "l", "source": "manual", "id": "e", "notes": ""}
                    ]

                    """.utf8
                ).write(to: file)

                let refused = try await cli.run(["import", file.path])
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("nothing was imported: 4 rows break a rule"), "\(refused)")
                for problem in [
                    "entry 2: metric must be one of height, weight", "entry 3: Weight must be between 2 and 635 kg",
                    "entry 4: logged_at must be an RFC 3339 time", "entry 5: Water must be a number",
                ] {
                    #expect(refused.stderr.contains(problem), "\(problem): \(refused.stderr)")
                }
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                #expect(try await server.quantities(of: "weight", token: token).isEmpty)

                let skipped = try await cli.run(["import", file.path, "--skip-invalid"])
                #expect(skipped.status == 0, "\(skipped)")
                #expect(skipped.stdout.contains("Weights: 1 read, 1 new, 0 already there."), "\(skipped)")
                #expect(skipped.stdout.contains("Skipped 4 bad rows."), "\(skipped)")
                #expect(try await server.quantities(of: "weight", token: token) == [80.5])
            }
        }
    }
}
