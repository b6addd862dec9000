import FitIQTestSupport
import Foundation
import Testing

/// `height delete` and `height correct` against the development server.
struct CorrectionsCLITests {
    @Test func aMistypedHeightIsCorrectedAndAnotherDeletedOnTheServer() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "175 cm", "--date", "2025-01-01"]).status == 0)
                #expect(try await cli.run(["height", "set", "108 cm"]).status == 0)  // meant 180

                let listed = try await cli.jsonRows(["height", "history", "--json"])
                let mistyped = try #require(listed.first { $0["heightCm"] as? Double == 108 })
                let older = try #require(listed.first { $0["heightCm"] as? Double == 175 })
                let mistypedId = try #require(mistyped["id"] as? String)
                let olderId = try #require(older["id"] as? String)

                let corrected = try await cli.run(["height", "correct", mistypedId, "180", "cm"])
                #expect(corrected.status == 0, "\(corrected)")
                #expect(corrected.stdout.contains("→ 180.0 cm"), "\(corrected)")
                let deleted = try await cli.run(["height", "delete", olderId])
                #expect(deleted.status == 0, "\(deleted)")
                #expect(try await cli.run(["height", "delete", "no-such-id"]).status == 64)

                // What the server holds, read by a second machine.
                let other = try #require(try await cli.otherMachine())
                let remote = try await other.jsonRows(["height", "history", "--json"])
                #expect(remote.map { $0["heightCm"] as? Double } == [180])
                #expect(remote.first?["loggedAt"] as? String == mistyped["loggedAt"] as? String)
                let profile = try await other.jsonObject(["profile", "show", "--json"])
                #expect(profile["heightCm"] as? Double == 180)
            }
        }
    }
}
