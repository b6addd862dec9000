import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

/// Two machines edit the same field: the second to sync is told, and chooses, instead of silently
/// overwriting the first (development server over loopback, the real binary on both sides).
struct ConflictsCLITests {
    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func aNameChangedOnTwoMachinesIsHeldUntilResolved(shape: DevServerConfiguration.ResponseShape) async throws {
        try await TestDevServer.with(TestDevServer.configuration(shape: shape)) { server in
            try await withCLI(server, registered: true) { cli in
                let other = try #require(try await cli.otherMachine())

                // This machine edits offline; the other machine changes the name on the server meanwhile.
                #expect(
                    try await cli.run(["profile", "set", "--name", "Jane Here", "--bio", "Swimmer", "--no-sync"]).status
                        == 0)
                #expect(try await other.run(["profile", "set", "--name", "Jane There"]).status == 0)

                let sync = try await cli.run(["sync", "--wait", "--timeout", "10"])
                #expect(sync.status == 4, "\(sync)")
                #expect(
                    sync.stdout.contains(#"conflict: name: here "Jane Here", on the server "Jane There""#), "\(sync)")
                let status = try await cli.jsonObject(["status", "--json"])
                let conflicts = try #require(status["conflicts"] as? [[String: String]])
                #expect(conflicts == [["field": "name", "local": "Jane Here", "server": "Jane There"]])

                // The bio (no conflict) went out; the name on the server is untouched.
                var shown = try await other.jsonObject(["profile", "show", "--json"])
                #expect(shown["bio"] as? String == "Swimmer")
                #expect(shown["name"] as? String == "Jane There")

                let bad = try await cli.run(["resolve", "name"])
                #expect(bad.status == 64, "\(bad)")
                let resolved = try await cli.run(["resolve", "name", "--keep-local"])
                #expect(resolved.status == 0, "\(resolved)")
                #expect(resolved.stdout.contains("Saved and synced."), "\(resolved)")
                shown = try await other.jsonObject(["profile", "show", "--json"])
                #expect(shown["name"] as? String == "Jane Here")
                let after = try await cli.jsonObject(["status", "--json"])
                #expect((after["conflicts"] as? [Any])?.isEmpty == true)
                #expect(after["pendingChanges"] as? Int == 0)
            }
        }
    }

    /// Only the production shape reports the server's height in the profile (contract D4): with the
    /// spec's shape the client cannot see another device's height there, so it cannot hold a conflict.
    @Test func takingTheServersHeightDropsThisMachinesEdit() async throws {
        let shape = DevServerConfiguration.ResponseShape.real
        try await TestDevServer.with(TestDevServer.configuration(shape: shape)) { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "170 cm"]).status == 0)
                let other = try #require(try await cli.otherMachine())

                #expect(try await cli.run(["height", "set", "181 cm", "--no-sync"]).status == 0)
                #expect(try await other.run(["height", "set", "175 cm"]).status == 0)
                let sync = try await cli.run(["sync"])
                #expect(
                    sync.stdout.contains(#"conflict: height: here "181.0 cm", on the server "175.0 cm""#), "\(sync)")

                let resolved = try await cli.run(["resolve", "height", "--take-server"])
                #expect(resolved.status == 0, "\(resolved)")
                let shown = try await cli.jsonObject(["profile", "show", "--json"])
                #expect(shown["heightCm"] as? Double == 175)
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
                #expect(
                    try await cli.run(["resolve", "height", "--take-server"]).stdout.contains("No conflict on height."))
            }
        }
    }
}
