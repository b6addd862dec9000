import FitIQTestSupport
import Foundation
import Testing

/// The `bmi` entries the server holds, against the development server: one another app posted is
/// pulled, kept, listed and exported beside the BMI derived here, never logged nor posted again.
@Suite(.timeLimit(.minutes(3)))
struct RecordedBMICLITests {
    /// A BMI as another app posts it, straight to the server, for the account of `email`.
    static func postBMI(_ server: TestDevServer, email: String = "jane@example.com") async throws {
        let token = try await server.accessToken(email: email, password: CLIHarness.password)
        let body = JSONTree.object([
            .init("type", .string("bmi")), .init("quantity", .number("31.2")),
            .init("logged_at", .string("2025-07-14T09:00:00Z")), .init("notes", .string("clinic's scale")),
        ])
        _ = try await server.api("POST", "progress", body: body, token: token)
    }

    @Test func aBMIOnTheServerIsPulledKeptAndExportedBesideTheDerivedOne() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "180 cm", "--date", "2025-01-10"]).status == 0)
                #expect(try await cli.run(["weight", "set", "80", "--date", "2025-07-15"]).status == 0)
                try await Self.postBMI(server)
                #expect(try await cli.run(["sync", "--wait"]).status == 0)

                // Kept as the server holds it, and listed.
                let kept = try await cli.jsonRows(["history", "bmi", "--json"])
                #expect(kept.count == 1, "\(kept)")
                #expect(kept.first?["bmi"] as? Double == 31.2 && kept.first?["notes"] as? String == "clinic's scale")
                #expect(kept.first?["source"] as? String == "server" && kept.first?["synced"] as? Bool == true)
                let listed = try await cli.run(["history", "bmi"])
                #expect(listed.stdout.contains("2025-07-14 09:00  31.2  server  clinic's scale"), "\(listed)")

                // Exported after the BMI derived from the weight; the profile's BMI stays the derived one.
                let rows = try await cli.jsonRows(["export", "--json", "--metric", "bmi"])
                #expect(rows.map { $0["source"] as? String } == ["derived", "server"], "\(rows)")
                #expect(rows.map { $0["value"] as? Double } == [24.7, 31.2], "\(rows)")
                #expect(try await cli.jsonObject(["profile", "show", "--json"])["bmi"] as? Double == 24.7)

                // Never logged nor corrected here, and nothing of it goes back to the server.
                let id = try #require(kept.first?["id"] as? String)
                for words in [["log", "bmi", "25"], ["correct", "bmi", id, "25"]] {
                    let refused = try await cli.run(words)
                    #expect(refused.status == 64, "\(words): \(refused)")
                    #expect(refused.stderr.contains("BMI is derived from your weight and height"), "\(refused)")
                }
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0, "\(status)")
                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                #expect(try await server.quantities(of: "bmi", token: token) == [31.2])

                // Removed here, it is removed there.
                #expect(try await cli.run(["delete", "bmi", id]).status == 0)
                #expect(try await server.quantities(of: "bmi", token: token).isEmpty)
            }
        }
    }
}
