import FitIQTestSupport
import Foundation
import Testing

/// `FITIQ_SYNC_IN_FLIGHT`: how many height entries are sent at once.
struct InFlightCLITests {
    @Test(arguments: ["0", "33", "eight", "-1", "\u{1B}[2J"])
    func aValueOutsideTheRuleIsRefusedNamingTheVariable(value: String) async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var runner = cli.runner
                runner.environment["FITIQ_SYNC_IN_FLIGHT"] = value

                let set = try await runner.run(["height", "set", "171 cm"])

                #expect(set.status != 0, "\(set)")
                #expect(set.stderr.contains("FITIQ_SYNC_IN_FLIGHT must be a whole number from 1 to 32"), "\(set)")
                #expect(!set.stderr.contains("\u{1B}"), "escape sequences are never printed")
                let status = try await cli.run(["status", "--json"])
                #expect(
                    (try CLIHarness.json(status) as? [String: Any])?["pendingChanges"] as? Int == 0, "nothing saved")
            }
        }
    }

    @Test func oneAtATimeStillSendsEveryEntry() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var runner = cli.runner
                runner.environment["FITIQ_SYNC_IN_FLIGHT"] = "1"
                for day in 1...5 {
                    #expect(
                        try await runner.run(["height", "set", "17\(day) cm", "--date", "2024-07-0\(day)", "--no-sync"])
                            .status == 0)
                }

                let sync = try await runner.run(["sync", "--wait"])

                #expect(sync.status == 0, "\(sync)")
                let history = try await cli.jsonRows(["height", "history", "--json"])
                #expect(history.filter { $0["synced"] as? Bool == true }.count == 5, "\(history)")
            }
        }
    }
}
