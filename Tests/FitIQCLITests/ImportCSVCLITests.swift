import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// `fitiq-tui import-csv`: our export round-trips, a file imported again sends nothing, and a bad row
/// stops the whole import unless --skip-invalid.
@Suite(.timeLimit(.minutes(3)))
struct ImportCSVCLITests {
    @Test func anExportImportedIntoAWipedCacheExportsTheSameRowsAndSendsNothingTwice() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "180 cm", "--date", "2025-01-10"]).status == 0)
                #expect(try await cli.run(["weight", "set", "81.3", "--date", "2025-07-15"]).status == 0)
                #expect(try await cli.run(["body-fat", "set", "18.5", "--date", "2025-07-16"]).status == 0)
                let exported = try await cli.run(["export"])
                let file = cli.folder.appendingPathComponent("measurements.csv")
                try Data(exported.stdout.utf8).write(to: file)

                // A new machine (an empty cache): the import finds everything on the server already.
                let other = try #require(try await cli.otherMachine())
                let imported = try await other.run(["import-csv", file.path])
                #expect(imported.status == 0, "\(imported)")
                #expect(imported.stdout.contains("Weights: 1 read, 0 new, 1 already there."), "\(imported)")
                #expect(imported.stdout.contains("Skipped 1 BMI row: BMI is derived from weight and height."))
                let again = try await other.run(["export"])
                // The ids are the server's on both machines: the rows are the same.
                #expect(again.stdout == exported.stdout)

                // Readings the server lacks are posted once; the same file again sends nothing.
                let openScale = cli.folder.appendingPathComponent("openscale.csv")
                try Data(
                    """
                    "dateTime","weight","fat","water"
                    "01.08.2025 07:45","80.4","18.1","55.0"
                    "02.08.2025 07:50","80.0","0.0","0.0"

                    """.utf8
                ).write(to: openScale)
                let first = try await cli.run(["import-csv", openScale.path])
                #expect(first.stdout.contains("Weights: 2 read, 2 new, 0 already there."), "\(first)")
                #expect(first.stdout.contains("Body fat readings: 1 read, 1 new, 0 already there."), "\(first)")
                #expect(first.stdout.contains("Columns not imported: water."))
                let second = try await cli.run(["import-csv", openScale.path])
                #expect(second.stdout.contains("Weights: 2 read, 0 new, 2 already there."), "\(second)")
                let weights = try await other.jsonRows(["weight", "history", "--json"])
                #expect(weights.count == 3)
            }
        }
    }

    @Test func aBadRowImportsNothingUnlessSkippingInvalidRows() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let file = cli.folder.appendingPathComponent("weights.csv")
                try Data("Date,Weight\n2025-03-01,80.5\n2025-03-02,heavy\n2025-03-03,9000\n".utf8).write(to: file)

                let refused = try await cli.run(["import-csv", file.path])
                #expect(refused.status == 64)
                #expect(refused.stderr.contains("nothing was imported: 2 rows break a rule"), "\(refused)")
                #expect(refused.stderr.contains("line 3: Weight must be a number"))
                #expect(refused.stderr.contains("line 4: Weight must be between 2 and 635 kg"))
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)

                let skipped = try await cli.run(["import-csv", file.path, "--skip-invalid"])
                #expect(skipped.status == 0, "\(skipped)")
                #expect(skipped.stdout.contains("Weights: 1 read, 1 new, 0 already there."))
                #expect(skipped.stdout.contains("Skipped 2 bad rows."))
                let unknown = cli.folder.appendingPathComponent("unknown.csv")
                try Data("when,kilos\n".utf8).write(to: unknown)
                let refusedHeader = try await cli.run(["import-csv", unknown.path])
                #expect(refusedHeader.status == 64)
                #expect(refusedHeader.stderr.contains("is not one of the formats read"), "\(refusedHeader)")
            }
        }
    }

    /// An import killed (SIGKILL) at once, while it reads the file, while it holds the account lock or
    /// while it writes a cache file leaves every row queued or none: the cache is read afterwards, and a
    /// last import queues exactly the rest.
    @Test func anImportKilledAtAnyMomentLeavesEveryRowQueuedOrNone() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let rows = 20_000
                let start = CalendarDate(daysSince1970: 0)
                var text = "date,weight\n"
                for day in 0..<rows { text += "\(start.adding(days: 3_650 + day)),\(60 + Double(day % 300) / 10)\n" }
                let file = cli.folder.appendingPathComponent("many.csv")
                try Data(text.utf8).write(to: file)

                // Moments told by what the process holds open (/proc/PID/fd), never by the time passed.
                let moments: [(name: String, reached: (pid_t) -> Bool)] = [
                    ("at once", ProcessMoment.atOnce.isReached(by:)),
                    ("reading the file", { ProcessMoment.openFiles(of: $0).contains(file.path) }),
                    ("holding the account lock", ProcessMoment.holdingTheAccountLock.isReached(by:)),
                    ("writing a cache file", ProcessMoment.writingACacheFile.isReached(by:)),
                ]
                var outcomes: [Int] = []
                for moment in moments {
                    let child = try ChildProcess(
                        [cli.runner.executable.path, "import-csv", file.path, "--no-sync"],
                        environment: cli.runner.environment, output: .discarded)
                    // Watched through /proc, which tells of no change: the moment is looked for as the process
                    // runs (yielding, never sleeping), and the kill lands as soon as it is seen.
                    while !child.hasEnded && !moment.reached(child.pid) { await Task.yield() }
                    child.signal(SIGKILL)
                    await child.exit()
                    let status = try await cli.run(["status", "--json"])
                    #expect(status.status == 0, "\(status)")
                    let pending = try #require(try CLIHarness.json(status) as? [String: Any])["pendingChanges"] as? Int
                    #expect(pending == 0 || pending == rows, "\(String(describing: pending)) killed \(moment.name)")
                    outcomes.append(pending ?? -1)
                    if pending == rows { break }
                }
                let last = try await cli.run(["import-csv", file.path, "--no-sync"])
                #expect(last.status == 0, "\(last)")
                let queued = outcomes.last == rows ? 0 : rows
                #expect(last.stdout.contains("Weights: \(rows) read, \(queued) new"), "\(last) after \(outcomes)")
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == rows)
            }
        }
    }
}
