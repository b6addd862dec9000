import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// `fitiq-tui export`: every measurement and the derived BMI as CSV or JSON, against the development
/// server's data as the cache holds it.
@Suite(.timeLimit(.minutes(3)))
struct ExportCLITests {
    @Test func theMeasurementsAndTheDerivedBMIAreExportedAsCSVAndJSON() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                var lisbon = cli.runner
                lisbon.environment["TZ"] = "Europe/Lisbon"
                #expect(try await cli.register().status == 0)
                #expect(try await lisbon.run(["height", "set", "160 cm", "--date", "2025-01-10"]).status == 0)
                #expect(try await lisbon.run(["weight", "set", "64", "--date", "2025-03-01"]).status == 0)
                #expect(try await lisbon.run(["height", "set", "180 cm", "--date", "2025-06-01"]).status == 0)
                #expect(try await lisbon.run(["weight", "set", "81", "--date", "2025-07-15"]).status == 0)
                #expect(try await lisbon.run(["body-fat", "set", "18.5", "--date", "2025-07-15"]).status == 0)

                let csv = try await lisbon.run(["export", "--csv"])
                #expect(csv.status == 0, "\(csv)")
                let lines = csv.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
                #expect(lines.first == "logged_at,metric,value,unit,source,id,notes")
                let rows = lines.dropFirst().map {
                    $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                }
                #expect(rows.allSatisfy { $0.count == 7 })
                let shown = rows.map { "\($0[0]) \($0[1]) \($0[2]) \($0[3]) \($0[4])" }
                // Local time with its offset (summer time in Lisbon in July, none in January).
                #expect(shown.contains("2025-01-10T12:00:00+00:00 height 160.00 cm manual"), "\(shown)")
                #expect(shown.contains("2025-07-15T12:00:00+01:00 weight 81.00 kg manual"), "\(shown)")
                #expect(shown.contains("2025-07-15T12:00:00+01:00 body_fat_percentage 18.50 % manual"), "\(shown)")
                // BMI per weight, with the height at the weight's date: 64 / 1.6² and 81 / 1.8².
                #expect(shown.contains("2025-03-01T12:00:00+00:00 bmi 25.00 kg/m² derived"), "\(shown)")
                #expect(shown.contains("2025-07-15T12:00:00+01:00 bmi 25.00 kg/m² derived"), "\(shown)")
                let weightIds = Set(rows.filter { $0[1] == "weight" }.map { $0[5] })
                #expect(Set(rows.filter { $0[1] == "bmi" }.map { $0[5] }) == weightIds)

                let imperial = try await lisbon.run(
                    [
                        "export", "--json", "--metric", "height", "--metric", "body-fat", "--since", "2025-05-01",
                        "--units", "imperial",
                    ])
                #expect(imperial.status == 0, "\(imperial)")
                let objects = try #require(try CLIHarness.json(imperial) as? [[String: Any]])
                #expect(objects.map { $0["metric"] as? String } == ["height", "body_fat_percentage"])
                #expect(objects.first?["value"] as? Double == 70.87)
                #expect(objects.first?["unit"] as? String == "in")
                #expect(
                    Set(objects.first?.keys ?? [:].keys) == [
                        "logged_at", "metric", "value", "unit", "source", "id", "notes",
                    ])

                let until = try await lisbon.run(["export", "--metric", "weight", "--until", "2025-03-01"])
                #expect(until.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 2, "\(until)")
                let refused = try await lisbon.run(["export", "--metric", "naps"])
                #expect(refused.status == 64)
                #expect(refused.stderr.contains("--metric naps is not a metric"), "\(refused)")
                let graphics = try await lisbon.run(["--graphics", "sixel"])
                #expect(graphics.status == 64)
                #expect(graphics.stderr.contains("--graphics must be braille, block or ascii."), "\(graphics)")
            }
        }
    }
}
