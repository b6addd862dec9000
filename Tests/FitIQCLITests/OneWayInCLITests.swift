import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// Plain mode and the commands reach the same `Account.apply` as the editor, and a bad value gets the
/// core's one sentence in each (the editor's side: `MeasurementFieldsTests`).
@Suite(.timeLimit(.minutes(3)))
struct OneWayInCLITests {
    /// What the core says of `typed` as a weight in metric units.
    static func refusal(of typed: String) throws -> String {
        do {
            _ = try Metric.weight.parse(typed, unitSystem: .metric)
        } catch {
            return error.description
        }
        throw ChildProcess.Failure(description: "\(typed) is a good weight")
    }

    @Test func aBadWeightGetsTheSameSentenceFromTheCommandAndFromPlainMode() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                for typed in ["900 kg", "abc"] {
                    let sentence = try Self.refusal(of: typed)
                    let command = try await cli.run(["weight", "set", typed])
                    #expect(command.status == 64, "\(command)")
                    #expect(command.stderr.contains(sentence), "\(command)")
                    let plain = try await cli.run(["--plain"], input: "set weight \(typed)\nquit\n")
                    #expect(plain.stdout.contains(sentence), "\(plain)")
                }
                // Nothing of either was kept.
                #expect(try await cli.jsonRows(["weight", "history", "--json"]).isEmpty)
                // A good value takes the same way in from both.
                #expect(try await cli.run(["weight", "set", "72.4"]).status == 0)
                let plain = try await cli.run(["--plain"], input: "set weight 73.1\nsave\nquit\n")
                #expect(plain.status == 0, "\(plain)")
                let values = try await cli.jsonRows(["weight", "history", "--json"]).compactMap {
                    $0["weightKg"] as? Double
                }
                #expect(values.sorted() == [72.4, 73.1], "\(values)")
            }
        }
    }
}
