import FitIQTestSupport
import Foundation
import Testing

/// Local time without ICU: the program takes each instant's offset from the C library, so `TZ` (with
/// daylight saving time) decides the day a past height is logged on and the dates shown.
struct LocalTimeCLITests {
    @Test(arguments: [
        ("UTC", "2024-07-01", "2024-07-01T12:00:00Z"),
        ("Europe/Lisbon", "2024-07-01", "2024-07-01T11:00:00Z"),  // summer time, UTC+1
        ("Europe/Lisbon", "2024-01-15", "2024-01-15T12:00:00Z"),  // winter, UTC+0
        ("America/New_York", "2024-07-01", "2024-07-01T16:00:00Z"),  // UTC-4 in summer
        ("Asia/Kolkata", "2024-07-01", "2024-07-01T06:30:00Z"),  // UTC+5:30, no daylight saving time
    ])
    func aPastHeightIsLoggedAtNoonLocalTime(zone: String, date: String, loggedAt: String) async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var local = cli.runner
                local.environment["TZ"] = zone

                let set = try await local.run(["height", "set", "171 cm", "--date", date, "--no-sync"])
                #expect(set.status == 0, "\(set)")
                #expect(set.stdout.contains("on \(date)"), "\(set)")

                let history = try await local.run(["height", "history", "--json"])
                let entries = try #require(try CLIHarness.json(history) as? [[String: Any]])
                let logged = entries.first { ($0["heightCm"] as? Double) == 171 }
                #expect(logged?["loggedAt"] as? String == loggedAt, "\(entries)")
                let text = try await local.run(["height", "history"])
                #expect(text.stdout.contains("\(date) 12:00  171.0 cm"), "\(text)")
            }
        }
    }
}
