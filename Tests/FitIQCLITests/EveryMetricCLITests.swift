import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// Every metric the server records, logged from the shell with a unit, a time of day and a note, and
/// read back as Today, against the development server.
@Suite(.timeLimit(.minutes(3)))
struct EveryMetricCLITests {
    @Test func waterMoodAndAWeightAtATimeReachTheServerAndToday() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var local = cli.runner
                // A zone where it is now about noon: 09:00 and 07:30 are past, whatever the hour in UTC.
                let east = 12 - Self.hour(inUTCPlus: 0)
                local.environment["TZ"] = east >= 0 ? "FIQ-\(east)" : "FIQ+\(-east)"

                let glass = try await local.run(["log", "water", "0.25", "l", "--at", "09:00"])
                #expect(glass.status == 0 && glass.stdout.contains("Logged 0.25 l at 09:00."), "\(glass)")
                let bottle = try await local.run(["log", "water", "500", "ml"])
                #expect(bottle.status == 0 && bottle.stdout.contains("Logged 0.5 l."), "\(bottle)")
                let mood = try await local.run(["log", "mood", "7", "--note", "good day"])
                #expect(mood.status == 0 && mood.stdout.contains("Note: good day"), "\(mood)")
                let weight = try await local.run(["weight", "set", "80", "--at", "07:30"])
                #expect(weight.status == 0 && weight.stdout.contains("Logged 80.0 kg at 07:30."), "\(weight)")

                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                #expect(try await server.quantities(of: "water_liters", token: token).sorted() == [0.25, 0.5])
                let moods = try await server.api(
                    "GET", "progress?type=mood_score&from=1900-01-01&to=2100-01-01", token: token)
                #expect(moods["entries"]?.array?.first?["notes"]?.string == "good day", "\(moods)")
                let weights = try await server.api(
                    "GET", "progress?type=weight&from=1900-01-01&to=2100-01-01", token: token)
                let loggedAt =
                    weights["entries"]?.array?.first?["logged_at"]?.string
                    ?? weights["entries"]?.array?.first?["date"]?.string
                let utcHour = ((7 - east) % 24 + 24) % 24
                #expect(loggedAt?.contains("T\(utcHour < 10 ? "0" : "")\(utcHour):30:00") == true, "\(weights)")

                let today = try CLIHarness.json(try await local.run(["today", "--json"])) as? [String: Any]
                let metrics = try #require(today?["metrics"] as? [[String: Any]], "\(String(describing: today))")
                let water = try #require(metrics.first { $0["type"] as? String == "water_liters" })
                #expect(water["today"] as? Double == 0.75 && water["unit"] as? String == "l")
                #expect(metrics.contains { $0["type"] as? String == "mood_score" && $0["today"] as? Double == 7 })

                let line = try await local.run(["today", "--line"])
                #expect(line.stdout.contains("0.75 l water") && line.stdout.contains("weighed today"), "\(line)")
                let history = try await local.run(["history", "water"])
                #expect(history.stdout.contains("0.75 l") && history.stdout.contains("09:00  0.25 l"), "\(history)")
            }
        }
    }

    @Test func aNegativeAFutureOrALongNoteIsRefusedWithTheRuleAndNothingIsPosted() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let note = String(repeating: "n", count: 501)
                for (words, rule) in [
                    (["log", "steps", "-5"], "Steps must be a whole number between 1 and 100,000."),
                    (["log", "steps", "4000.5"], "Steps must be a whole number between 1 and 100,000."),
                    (["weight", "set", "-80"], "Weight must be between 2 and 635 kg"),
                    (["log", "water", "11", "l"], "Water must be between 0.01 and 10 l."),
                    (["log", "water", "0.25", "--date", "2999-01-01"], "Date cannot be in the future."),
                    (["log", "sleep", "7h", "--at", "25:00"], "Time must be a time written HH:MM"),
                    (["log", "mood", "7", "--note", note], "Notes must be at most 500 characters"),
                    (["log", "naps", "3"], "Unknown metric 'naps'"),
                ] {
                    let run = try await cli.run(words)
                    #expect(run.status != 0, "\(words): \(run)")
                    #expect(run.stderr.contains(rule), "\(words): \(run.stderr)")
                }
                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                for type in ["steps", "water_liters", "sleep_hours", "mood_score", "weight"] {
                    #expect(try await server.quantities(of: type, token: token).isEmpty, "\(type)")
                }
                let status = try CLIHarness.json(try await cli.run(["status", "--json"])) as? [String: Any]
                #expect((status?["pending"] as? [Any])?.isEmpty ?? true, "\(String(describing: status))")
            }
        }
    }

    /// A week of steps and water sums each day's entries: the summary's mean is the average day and
    /// its total the week's; the table says so.
    @Test func aSummaryOfADailyAmountIsTheAverageDayAndTheTotal() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // Monday 2026-11-02 to Wednesday: 4,000 + 2,000 steps, then 8,000, then 6,000.
                for (day, steps) in [
                    ("2026-11-02", "4000"), ("2026-11-02", "2000"), ("2026-11-03", "8000"),
                    ("2026-11-04", "6000"),
                ] {
                    let run = try await cli.run(["log", "steps", steps, "--date", day, "--no-sync"])
                    #expect(run.status == 0, "\(run)")
                }
                let rows = try await cli.jsonRows(
                    [
                        "summary", "--metric", "steps", "--by", "week", "--since", "2026-11-02", "--until",
                        "2026-11-08",
                        "--json",
                    ])
                #expect(rows.count == 1, "\(rows)")
                #expect(rows.first?["readings"] as? Int == 3, "three days: \(rows)")
                #expect(
                    rows.first?["mean"] as? Double == 6_666.67
                        || abs((rows.first?["mean"] as? Double ?? 0) - 6_666.67) < 0.01)
                #expect(rows.first?["total"] as? Double == 20_000)
                let text = try await cli.run(["summary", "--metric", "steps", "--by", "week", "--since", "2026-11-02"])
                #expect(text.stdout.contains("day steps") && text.stdout.contains("total steps"), "\(text)")
                #expect(text.stdout.contains("20,000") || text.stdout.contains("20000"), "\(text)")
            }
        }
    }

    /// Export, then import on a second account: every metric and its note comes back as it was.
    @Test func anExportOfEveryMetricImportsBackWithItsNotes() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                for words in [
                    ["log", "steps", "4,000"], ["log", "water", "0.25", "--note", "tea, with milk"],
                    ["log", "sleep", "7:30", "--date", "2026-01-10"], ["log", "calories-in", "9600", "kJ"],
                    ["log", "resting-heart-rate", "58"],
                ] {
                    let run = try await cli.run(words)
                    #expect(run.status == 0, "\(words): \(run)")
                }
                let export = try await cli.run(["export"])
                #expect(export.stdout.hasPrefix("logged_at,metric,value,unit,source,id,notes\r\n"), "\(export)")
                let file = cli.folder.appendingPathComponent("every-metric.csv")
                try Data(export.stdout.utf8).write(to: file)

                var other = cli
                other.runner.environment["XDG_CACHE_HOME"] = cli.folder.appendingPathComponent("second-cache").path
                other.runner.environment["XDG_CONFIG_HOME"] = cli.folder.appendingPathComponent("second-config").path
                other.runner.environment["XDG_STATE_HOME"] = cli.folder.appendingPathComponent("second-state").path
                #expect(try await other.register("second@example.com").status == 0)
                let imported = try await other.run(["import", file.path])
                #expect(imported.status == 0, "\(imported)")
                let again = try await other.run(["export"])
                let rows = { (text: String) in
                    text.split(separator: "\r\n").dropFirst().map { row in
                        // The id is each account's own; the rest is the entry.
                        row.split(separator: ",", omittingEmptySubsequences: false).enumerated()
                            .filter { $0.offset != 5 && $0.offset != 4 }.map(\.element).joined(separator: ",")
                    }.sorted()
                }
                #expect(rows(again.stdout) == rows(export.stdout), "\(again.stdout)\nvs\n\(export.stdout)")
            }
        }
    }

    /// Any metric's entry is corrected (its time and note kept) and removed by its id, on the server too.
    @Test func anEntryOfAnyMetricIsCorrectedKeepingItsNoteAndRemoved() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["log", "water", "0.3", "l", "--note", "tea"]).status == 0)
                #expect(try await cli.run(["log", "sleep", "6:45"]).status == 0)
                let water = try await cli.jsonRows(["history", "water", "--json"])
                let id = try #require(water.first?["id"] as? String)
                let corrected = try await cli.run(["correct", "water", id, "250", "ml"])
                #expect(corrected.status == 0 && corrected.stdout.contains("0.3 l → 0.25 l"), "\(corrected)")
                let after = try await cli.jsonRows(["history", "water", "--json"])
                #expect(after.count == 1 && after.first?["waterLiters"] as? Double == 0.25, "\(after)")
                #expect(
                    after.first?["notes"] as? String == "tea"
                        && after.first?["loggedAt"] as? String == water.first?["loggedAt"] as? String)

                let sleep = try #require(
                    try await cli.jsonRows(["history", "sleep", "--json"]).first?["id"] as? String)
                let removed = try await cli.run(["delete", "sleep", sleep])
                #expect(removed.status == 0 && removed.stdout.contains("Removed 6.8 h"), "\(removed)")
                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                #expect(try await server.quantities(of: "sleep_hours", token: token).isEmpty)
                #expect(try await server.quantities(of: "water_liters", token: token) == [0.25])
                let unknown = try await cli.run(["delete", "naps", sleep])
                #expect(unknown.status == 64 && unknown.stderr.contains("Unknown metric 'naps'"), "\(unknown)")
            }
        }
    }

    /// The hour now at `hours` east of UTC.
    static func hour(inUTCPlus hours: Int) -> Int {
        let seconds = Int(Date().timeIntervalSince1970) + hours * 3600
        return (seconds % 86_400) / 3600
    }
}
