import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// `weight` and `body-fat` have the shape of `height`: set, history, correct and delete, against the
/// development server, and `profile show` reports their latest values and the BMI.
@Suite(.timeLimit(.minutes(3)))
struct MeasurementsCLITests {
    @Test func weightAndBodyFatAreLoggedCorrectedAndDeletedAndReachAnotherMachine() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "180 cm"]).status == 0)

                let pounds = try await cli.run(["weight", "set", "176.4", "lb"])
                #expect(pounds.status == 0, "\(pounds)")
                #expect(pounds.stdout.contains("Logged 80.0 kg."))
                let stones = try await cli.run(["weight", "set", "11 st 4 lb", "--date", "2026-01-15"])
                #expect(stones.stdout.contains("Logged 71.7 kg on 2026-01-15."), "\(stones)")
                let fat = try await cli.run(["body-fat", "set", "18,5 %"])
                #expect(fat.status == 0, "\(fat)")
                #expect(fat.stdout.contains("Logged 18.5 %."))

                let history = try await cli.jsonRows(["weight", "history", "--json"])
                #expect(history.count == 2)
                #expect(
                    Set(history.first?.keys ?? [:].keys) == ["id", "loggedAt", "weightKg", "source", "synced", "notes"])
                #expect(history.map { $0["weightKg"] as? Double } == [80.01, 71.67])
                #expect(history.allSatisfy { $0["synced"] as? Bool == true })
                let csv = try await cli.run(["body-fat", "history", "--csv"])
                #expect(csv.stdout.hasPrefix("id,logged_at,body_fat_percent,source,synced,notes\n"))
                #expect(csv.stdout.contains(",18.50,manual,true,"))

                let profile = try await cli.jsonObject(["profile", "show", "--json"])
                #expect(profile["weightKg"] as? Double == 80.01)
                #expect(profile["bodyFatPercent"] as? Double == 18.5)
                #expect(profile["bmi"] as? Double == 24.7)
                #expect(profile["weightLoggedAt"] is String && profile["bodyFatLoggedAt"] is String)
                let text = try await cli.run(["profile", "show"])
                #expect(text.stdout.contains("BMI             24.7 · healthy weight (18.5–24.9)"), "\(text)")

                let older = try #require(history.last?["id"] as? String)
                let corrected = try await cli.run(["weight", "correct", older, "72.5"])
                #expect(corrected.stdout.contains("Corrected 2026-01-15: 71.7 kg → 72.5 kg."), "\(corrected)")
                let newest = try #require(history.first?["id"] as? String)
                #expect(try await cli.run(["weight", "delete", newest]).status == 0)

                let other = try #require(try await cli.otherMachine())
                let remote = try await other.jsonRows(["weight", "history", "--json"])
                #expect(remote.map { $0["weightKg"] as? Double } == [72.5])
                let remoteFat = try await other.jsonRows(["body-fat", "history", "--json"])
                #expect(remoteFat.map { $0["bodyFatPercent"] as? Double } == [18.5])
            }
        }
    }

    @Test func aWeightOutOfRangeOrInAnUnknownUnitIsRefusedAndNothingIsQueued() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                for (words, rule) in [
                    (["weight", "set", "700"], "Weight must be between 2 and 635 kg"),
                    (["weight", "set", "72", "stone"], "Weight must be a number with an optional unit"),
                    (["body-fat", "set", "0.5"], "Body fat must be between 1 and 75 %"),
                ] {
                    let refused = try await cli.run(words)
                    #expect(refused.status != 0, "\(words)")
                    #expect(refused.stderr.contains(rule), "\(refused)")
                }
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
                let unknown = try await cli.run(["weight", "delete", "no-such-id"])
                #expect(unknown.stderr.contains("No weight entry has the id no-such-id"), "\(unknown)")
            }
        }
    }

    /// The transcript: a pending weight and body fat reading are named with their own metric
    /// and unit in `status` (text and JSON) and in the logout refusal, never as heights.
    @Test func pendingReadingsAreNamedByTheirMetricAndUnit() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.start()
            cli.server = server.url
            #expect(try await cli.register().status == 0)
            #expect(try await cli.run(["weight", "set", "72.4", "--no-sync"]).status == 0)
            #expect(try await cli.run(["body-fat", "set", "18.5", "--no-sync"]).status == 0)
            await server.stop()

            let text = try await cli.run(["status"])
            #expect(text.stdout.contains("weight history: 72.4 kg on"), "\(text)")
            #expect(text.stdout.contains("body fat history: 18.5 % on"), "\(text)")
            #expect(!text.stdout.contains("height"), "\(text)")
            let json = try await cli.jsonObject(["status", "--json"])
            let changes = (json["pending"] as? [[String: Any]] ?? []).compactMap { $0["change"] as? String }
            #expect(changes.count == 2, "\(changes)")
            #expect(changes.contains { $0.hasPrefix("weight history: 72.4 kg on ") }, "\(changes)")
            #expect(changes.contains { $0.hasPrefix("body fat history: 18.5 % on ") }, "\(changes)")
            let logout = try await cli.run(["logout"])
            #expect(logout.status == 4, "\(logout)")
            #expect(logout.stderr.contains("weight history: 72.4 kg on"), "\(logout)")
            #expect(logout.stderr.contains("body fat history: 18.5 % on"), "\(logout)")
        }
    }
}
