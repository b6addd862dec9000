import FitIQDevServer
import FitIQTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// `fitiq-tui import-health` end to end: a generated export, the real binary, the development server.
@Suite(.timeLimit(.minutes(3)))
struct HealthImportCLITests {
    @Test func importingTwiceSendsTheSexOnceAndEachSampleOnce() async throws {
        try await CLIHarness.with { cli in
            let requests = RequestRecorder()
            let server = try await TestDevServer.start(logger: requests.logger)
            defer { Task { await server.stop() } }
            cli.server = server.url
            #expect(try await cli.register().status == 0)

            let export = cli.folder.appendingPathComponent("export.zip")
            let expect = cli.folder.appendingPathComponent("expect.json")
            let made = try await RepositoryTools.makeHealthExport([
                "--zip", "--mb", "2", "--sex", "female", "--heights", "12", "--seed", "7", "--since", "2024-06-01",
                "--out", export.path, "--expect", expect.path,
            ])
            #expect(made.status == 0, "\(made)")
            let answers = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: expect)) as? [String: Any])
            let samples = try #require(answers["count"] as? Int)
            // The export's BodyMass records are weights, imported too (each a distinct reading here).
            let weights = try #require(answers["weight_records"] as? Int)
            #expect(weights > 0 && answers["weight_readings"] as? Int == weights)
            #expect(answers["body_fat_records"] as? Int == 0)

            requests.clear()
            // A dry run says per metric the days found and new, and sends and writes nothing.
            let preview = try await cli.run(["import", export.path, "--dry-run"])
            #expect(preview.status == 0, "\(preview)")
            #expect(preview.stdout.contains("Nothing was written (--dry-run)."), "\(preview)")
            #expect(Self.dayCounts(preview.stdout).count == 4)
            #expect(Self.dayCounts(preview.stdout).allSatisfy { $0.new > 0 && $0.held == 0 })
            #expect(requests.count("POST /api/v1/progress") == 0)
            #expect(try await cli.jsonRows(["history", "steps", "--json"]).isEmpty)

            requests.clear()
            let first = try await cli.run(["import-health", export.path])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.contains("Biological sex Female from the health source; sending it to the server."))
            #expect(first.stdout.contains("Heights: \(samples) found, \(samples) new, \(samples) posted."))
            #expect(first.stdout.contains("Weights: \(weights) found, \(weights) new, \(weights) posted."))
            #expect(requests.count("PATCH /api/v1/users/me/physical") == 1)
            // Steps, distance, energy burned and sleep: one entry a day each, every day new the first time.
            let days = Self.dayCounts(first.stdout)
            #expect(days.map(\.metric) == ["Steps", "Distance", "Calories burned", "Nights"])
            #expect(days.allSatisfy { $0.found > 100 || $0.metric == "Nights" })
            #expect(days.allSatisfy { $0.held == 0 && $0.new > 0 })
            // Thousands of days may outlast the import's wait for the server on a loaded machine: what is
            // left goes out with the next sync, each entry once.
            let synced = try await cli.run(["sync", "--wait"])
            #expect(synced.status == 0, "\(synced)")
            #expect(requests.count("POST /api/v1/progress") == samples + weights + days.map(\.new).reduce(0, +))

            let shown = try await cli.jsonObject(["profile", "show", "--json"])
            #expect(shown["biologicalSex"] as? String == "female")
            #expect(shown["biologicalSexSource"] as? String == "health")
            #expect(abs((shown["heightCm"] as? Double ?? 0) - (answers["latest_cm"] as? Double ?? -1)) < 0.01)

            requests.clear()
            // With the dynamic loader's trace: the import loads libxml2 (nothing links it).
            var traced = cli.runner
            traced.environment["LD_DEBUG"] = "libs"
            let second = try await traced.run(["import-health", export.path])
            #expect(second.status == 0, "\(second)")
            #expect(second.stderr.contains("calling init: /"), "the loader trace is there")
            #expect(
                second.stderr.split(separator: "\n").contains {
                    $0.contains("calling init: ") && $0.contains("/libxml2.so.2")
                }, "libxml2 is loaded for the import")
            #expect(second.stdout.contains("Nothing new to send"))
            #expect(second.stdout.contains("Heights: \(samples) found, 0 new."))
            #expect(second.stdout.contains("Weights: \(weights) found, 0 new."))
            #expect(requests.count("PATCH /api/v1/users/me/physical") == 0)
            #expect(requests.count("POST /api/v1/progress") == 0)
            let again = Self.dayCounts(second.stdout)
            #expect(again.map(\.metric) == days.map(\.metric))
            #expect(zip(again, days).allSatisfy { $0.new == 0 && $0.held == $1.new && $0.found == $1.found })

            let missing = try await cli.run(["import-health", cli.folder.appendingPathComponent("nope.zip").path])
            #expect(missing.status == 64)
            #expect(missing.stderr.contains("No file or folder at"))
        }
    }
}

/// Collects the development server's request log lines (`METHOD PATH STATUS`).
final class RequestRecorder: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "requests", factory: { _ in Handler(recorder: self) })
        logger.logLevel = .info
        return logger
    }

    func clear() { lines.withLock { $0 = [] } }

    /// How many answered requests start with `prefix` (e.g. `PATCH /api/v1/users/me/physical`).
    func count(_ prefix: String) -> Int {
        lines.withLock { $0.filter { $0.hasPrefix(prefix + " ") }.count }
    }

    fileprivate func record(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let recorder: RequestRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record(event.message.description)
        }
    }

}

extension HealthImportCLITests {
    /// The lines `Steps: 1472 days found, 1472 new, 0 held already…` of an import's output.
    static func dayCounts(_ output: String) -> [(metric: String, found: Int, new: Int, held: Int)] {
        output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ": ", maxSplits: 1)
            guard parts.count == 2, parts[1].contains(" days found, ") else { return nil }
            let numbers = parts[1].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 3 else { return nil }
            return (String(parts[0]), numbers[0], numbers[1], numbers[2])
        }
    }
}
