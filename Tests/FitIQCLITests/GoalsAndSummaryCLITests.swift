import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// The time-aware trend in plain mode (the issue's three rows), goals from the command line, and the
/// summary by week, checked against the readings.
@Suite(.timeLimit(.minutes(3)))
struct GoalsAndSummaryCLITests {
    static let demoPassword = "demo pass 1"

    /// The number before `unit` in `line` after `prefix`: `Trend 78.0 kg` → 78.0.
    static func number(after prefix: String, in text: String) -> Double? {
        guard let range = text.range(of: prefix) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    /// Imports `rows` of `date,weight` and asks plain mode for `trend weight all`.
    static func trend(of rows: [(CalendarDate, Double)], _ cli: CLIHarness) async throws -> String {
        let file = cli.folder.appendingPathComponent("weights-\(UUID().uuidString).csv")
        try ("date,weight\n" + rows.map { "\($0.0),\($0.1)" }.joined(separator: "\n") + "\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let imported = try await cli.run(["import-csv", file.path])
        #expect(imported.status == 0, "\(imported)")
        return try await cli.run(["--plain"], input: "trend weight all\nquit\n").stdout
    }

    @Test func theIssuesRowsGiveTheScalesValueInPlainMode() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let today = CalendarDate(containing: Date(), in: .utc)
                // Monthly, 90 → 78 kg over a year: about 78 kg, −0.23 kg a week (shown to a tenth).
                let monthly = (0...12).map { month in (today.adding(days: -30 * (12 - month)), 90 - Double(month)) }
                let first = try await Self.trend(of: monthly, cli)
                let trend = try #require(Self.number(after: "Trend ", in: first), "\(first)")
                #expect(abs(trend - 78) < 0.3, "\(first)")
                #expect(first.contains("kg, −0.2 kg a week over the whole history."), "\(first)")

                // Another account: daily 80 kg for 60 days, 8 weeks without, then 85 kg three days running.
                #expect(try await cli.register("gap@example.com").status == 0)
                let start = today.adding(days: -(60 + 56 + 2))
                let gap =
                    (0..<60).map { (start.adding(days: $0), 80.0) } + (0..<3).map { (today.adding(days: $0 - 2), 85.0) }
                let second = try await Self.trend(of: gap, cli)
                let afterGap = try #require(Self.number(after: "Trend ", in: second), "\(second)")
                #expect(abs(afterGap - 85) < 0.3, "\(second)")
            }
        }
    }

    @Test func theDemoAccountsBodyFatAndWeeklySummaryAgreeWithItsReadings() async throws {
        try await TestDevServer.with(TestDevServer.configuration(demoPassword: Self.demoPassword)) { server in
            try await withCLI(server) { cli in
                let login = try await cli.run(
                    ["login", "--server", server.url, "--email", "demo@fitiq.dev"], input: Self.demoPassword + "\n")
                #expect(login.status == 0, "\(login)")

                // The issue's third row: monthly body fat 24 → 21 %, three months shown: about 21 %.
                let plain = try await cli.run(["--plain"], input: "trend body-fat 3m\nquit\n").stdout
                let bodyFat = try #require(Self.number(after: "Trend ", in: plain), "\(plain)")
                #expect(abs(bodyFat - 21) < 0.3, "\(plain)")

                // summary --by week --csv, against a computation from the readings themselves.
                let history = try await cli.jsonRows(["weight", "history", "--json"])
                #expect(history.count > 200)
                let readings = try history.map { row -> (at: Date, kilograms: Double) in
                    let text = try #require(row["loggedAt"] as? String)
                    let at = try #require(
                        try? Date(
                            text,
                            strategy: .iso8601.year().month().day().time(includingFractionalSeconds: text.contains("."))
                        ))
                    return (at, try #require(row["weightKg"] as? Double))
                }.sorted { $0.at < $1.at }
                var weeks: [(monday: String, values: [Double], trend: Double)] = []
                var trend: Double?
                var previous: Date?
                var calendar = Calendar(identifier: .iso8601)
                calendar.timeZone = TimeZone(identifier: "UTC")!
                for reading in readings {
                    let days = previous.map { reading.at.timeIntervalSince($0) / 86_400 } ?? 0
                    trend = trend.map { $0 + (1 - pow(0.9, days)) * (reading.kilograms - $0) } ?? reading.kilograms
                    previous = reading.at
                    let monday = calendar.dateInterval(of: .weekOfYear, for: reading.at)!.start
                    let key = String(ISO8601DateFormatter().string(from: monday).prefix(10))
                    if weeks.last?.monday == key {
                        weeks[weeks.count - 1].values.append(reading.kilograms)
                        weeks[weeks.count - 1].trend = trend ?? 0
                    } else {
                        weeks.append((key, [reading.kilograms], trend ?? 0))
                    }
                }
                let csv = try await cli.run(["summary", "--by", "week", "--csv"])
                #expect(csv.status == 0, "\(csv)")
                let lines = csv.stdout.split(separator: "\r\n").map(String.init)
                #expect(lines.first == "start,end,readings,mean,lowest,highest,trend,change,unit,total")
                #expect(lines.count - 1 == weeks.count, "\(lines.count - 1) rows, \(weeks.count) weeks")
                var previousMean: Double?
                for (line, week) in zip(lines.dropFirst(), weeks) {
                    let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    let mean = week.values.reduce(0, +) / Double(week.values.count)
                    #expect(cells[0] == week.monday, "\(line)")
                    #expect(Int(cells[2]) == week.values.count, "\(line)")
                    for (cell, value) in [
                        (cells[3], mean), (cells[4], week.values.min() ?? 0), (cells[5], week.values.max() ?? 0),
                        (cells[6], week.trend),
                    ] {
                        #expect(abs((Double(cell) ?? .nan) - value) <= 0.006, "\(line): \(cell) vs \(value)")
                    }
                    if let previousMean {
                        #expect(abs((Double(cells[7]) ?? .nan) - (mean - previousMean)) <= 0.006, "\(line)")
                    } else {
                        #expect(cells[7].isEmpty)
                    }
                    #expect(cells[8] == "kg")
                    previousMean = mean
                }
            }
        }
    }

    @Test func aGoalIsSetShownListedAndClearedAndBadOnesAreRefusedWithTheRule() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let today = CalendarDate(containing: Date(), in: .utc)
                for days in [40, 20, 1] {
                    let logged = try await cli.run(
                        [
                            "weight", "set", "\(80 - Double(40 - days) / 10)", "--date",
                            today.adding(days: -days).description,
                        ])
                    #expect(logged.status == 0, "\(logged)")
                }
                let by = today.adding(days: 200)

                for (arguments, rule) in [
                    (
                        ["goal", "set", "bmi", "22"],
                        "A goal can be set for weight, body-fat, steps, distance, active-minutes, calories-out, water, calories-in, protein, carbs, fat, sleep, resting-heart-rate, not bmi."
                    ),
                    (["goal", "set", "weight", "700"], "Weight must be between 2 and 635 kg"),
                    (["goal", "set", "weight", "75", "--by", "2020-01-01"], "The goal's date must be today ("),
                    (["goal", "set", "body-fat", "0.2"], "Body fat must be between 1 and 75 %"),
                ] {
                    let refused = try await cli.run(arguments)
                    #expect(refused.status == 64, "\(refused)")
                    #expect(refused.stderr.contains(rule), "\(refused)")
                }
                #expect(
                    (try CLIHarness.json(try await cli.run(["goal", "show", "--json"])) as? [Any])?.isEmpty == true)

                let set = try await cli.run(["goal", "set", "weight", "165", "lb", "--by", by.description])
                #expect(set.status == 0, "\(set)")
                #expect(set.stdout.contains("Goal set: 74.8 kg by \(by). It is kept on this machine"), "\(set)")
                let shown = try await cli.jsonRows(["goal", "show", "--json"])
                #expect(shown.count == 1)
                #expect(shown.first?["metric"] as? String == "weight" && shown.first?["unit"] as? String == "kg")
                #expect(abs((shown.first?["target"] as? Double ?? 0) - 74.84) < 0.01)
                #expect(shown.first?["by"] as? String == by.description && shown.first?["setAt"] is String)
                let profile = try await cli.jsonObject(["profile", "show", "--json"])
                #expect((profile["goals"] as? [[String: Any]])?.first?["metric"] as? String == "weight")
                let text = try await cli.run(["goal", "show"])
                #expect(text.stdout.contains("Goal 74.8 kg by \(by): the trend, "), "\(text)")

                // export: the goal as a row of its own in JSON; --trend adds the trend column.
                let export = try #require(
                    try CLIHarness.json(try await cli.run(["export", "--json", "--metric", "weight", "--trend"]))
                        as? [[String: Any]])
                #expect(export.count == 4)
                #expect(export.last?["source"] as? String == "goal" && export.last?["id"] as? String == "goal")
                #expect(export.dropLast().allSatisfy { $0["trend"] is Double })
                let csv = try await cli.run(["export", "--metric", "weight", "--trend"])
                #expect(csv.stdout.hasPrefix("logged_at,metric,value,unit,source,id,notes,trend\r\n"), "\(csv)")
                #expect(!csv.stdout.contains(",goal,"))

                #expect(try await cli.run(["goal", "clear", "weight"]).stdout.contains("The weight goal is cleared."))
                #expect(
                    (try CLIHarness.json(try await cli.run(["goal", "show", "--json"])) as? [Any])?.isEmpty == true)
                let unknown = try await cli.run(["goal", "clear", "height"])
                #expect(unknown.status == 64 && unknown.stderr.contains("not height"), "\(unknown)")

                // Removed with the account: a logout and a new login find none.
                #expect(try await cli.run(["goal", "set", "body-fat", "20"]).status == 0)
                #expect(try await cli.run(["logout"]).status == 0)
                let login = try await cli.run(
                    ["login", "--server", server.url, "--email", "jane@example.com"], input: CLIHarness.password + "\n")
                #expect(login.status == 0, "\(login)")
                #expect(
                    (try CLIHarness.json(try await cli.run(["goal", "show", "--json"])) as? [Any])?.isEmpty == true)
            }
        }
    }
}
