import FitIQCore
import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

/// Random mutants of real input, black-box: `fitiq-tui` against the development server, each table from
/// a fixed seed (``Mutants/seed``, printed, with each mutant's index or each sync's run in its failure).
/// Every `swift test` runs ``Mutants/count`` mutants a table; `make badinput` runs 1,000.
///
/// - Cache files: mutants of a real `account.json` (written by the program: signed in, a history of
///   120 heights synced, then edits, goals and heights queued while the server answers 503), of the
///   fixture `account-v1.json` in its place, of one month segment of the history and of `goals.json`.
///   Each is read by `status --json`, `height history --json` and `goal show --json`.
/// - Server answers (``serverAnswerMutantsLeaveEveryQueuedValueOnTheServer(_:)``): a proxy in front of
///   the server mutates answers while a signed-in account with queued edits runs `sync`.
///
/// Mutants of the fixture repeat exactly; those of the written files and of the answers repeat up to the
/// ids and times the program and the server choose.
@Suite(.timeLimit(.minutes(30)))
struct BadInputMutationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FitIQCacheTests/Fixtures/account-v1.json")

    /// One file to mutate: what it is, where it goes under the home folder, and its bytes.
    struct Base: Sendable {
        let name: String
        let relative: String
        let bytes: [UInt8]
    }

    struct Mutant: Sendable {
        let index: Int
        let kind: String
        let base: Base
        let bytes: [UInt8]
    }

    /// A home whose cache the program wrote: `account.json` with queued changes, goals, and a synced
    /// history long enough to be kept in month segments. Returns the paths under `cli.folder` of
    /// `account.json` and of the history's first segment.
    static func writeCache(_ cli: CLIHarness, server: TestDevServer, proxy: MutatingProxy) async throws -> (
        account: String, segment: String
    ) {
        let runner = cli.runner
        try await Mutants.must(
            runner,
            [
                "register", "--server", proxy.url, "--email", "cache@example.com",
                "--name", "Mutant", "--date-of-birth", "1990-01-01",
            ])
        // A history of 120 entries another device logged over four months: the first sync writes segments.
        let token = try await server.accessToken(email: "cache@example.com", password: CLIHarness.password)
        let start = Date(timeIntervalSince1970: 1_756_711_800)  // 2025-09-01T07:30:00Z
        for day in 0..<120 {
            let logged = RFC3339.format(start.addingTimeInterval(Double(day) * 86_400))
            let body = JSONTree.object([
                .init("type", .string("height")), .init("quantity", .number("170.\(day % 10)")),
                .init("logged_at", .string(logged)),
            ])
            _ = try await server.api("POST", "progress", body: body, token: token)
        }
        for arguments in [
            ["sync", "--wait"], ["height", "set", "180 cm"], ["height", "set", "179.5 cm", "--date", "2026-01-10"],
            ["profile", "set", "--bio", "Synced bio", "--language", "en"],
            ["goal", "set", "weight", "75", "--by", "2030-06-01"], ["goal", "set", "body-fat", "20"],
        ] {
            try await Mutants.must(runner, arguments)
        }
        proxy.down()  // the server answers 503: what follows stays queued
        for arguments in [
            ["profile", "set", "--name", "Queued Name", "--bio", "Queued bio", "--no-sync"],
            ["height", "set", "182.5 cm", "--date", "2026-02-01", "--no-sync"],
            ["height", "set", "183 cm", "--no-sync"],
        ] {
            try await Mutants.must(runner, arguments)
        }
        _ = try await Mutants.run(runner, ["sync", "--wait", "--timeout", "0.5"])  // attempts and errors recorded
        let files = FileManager.default.enumerator(atPath: cli.folder.path)?.allObjects as? [String] ?? []
        let accounts = files.filter { ($0 as NSString).lastPathComponent == "account.json" }
        guard accounts.count == 1, let account = accounts.first else {
            throw ChildProcess.Failure(description: "expected one account.json under \(cli.folder.path): \(accounts)")
        }
        let history = (account as NSString).deletingLastPathComponent + "/history/"
        guard let segment = files.filter({ $0.hasPrefix(history + "height-") }).sorted().first else {
            throw ChildProcess.Failure(description: "no history segment in \(history): \(files)")
        }
        return (account, segment)
    }

    @Test func cacheFileMutantsAreReadOrRefusedNamingTheFileAndKeepingItsBytes() async throws {
        try await TestDevServer.with { server in
            let proxy = try MutatingProxy(upstream: server.port)
            defer { proxy.stop() }
            try await withCLI { cli in
                let (account, segment) = try await Self.writeCache(cli, server: server, proxy: proxy)
                func read(_ relative: String) throws -> [UInt8] {
                    Array(try Data(contentsOf: cli.folder.appendingPathComponent(relative)))
                }
                // Every cache file: account.json as the program wrote it, the released version 1 file in its
                // place, a month segment of the history, and the goals.
                let goals = (account as NSString).deletingLastPathComponent + "/goals.json"
                let bases = [
                    Base(name: "account.json written by the program", relative: account, bytes: try read(account)),
                    Base(
                        name: "fixture account-v1.json", relative: account,
                        bytes: Array(try Data(contentsOf: Self.fixture))),
                    Base(
                        name: "history segment \((segment as NSString).lastPathComponent)", relative: segment,
                        bytes: try read(segment)),
                    Base(name: "goals.json written by the program", relative: goals, bytes: try read(goals)),
                ]
                var random = SeededRandom(seed: Mutants.seed)
                let mutants = (0..<Mutants.count).map { index in
                    let base = bases[index % bases.count]
                    let (kind, bytes) = Mutation.mutant(of: base.bytes, kinds: Mutation.forFiles, &random)
                    return Mutant(index: index, kind: kind, base: base, bytes: bytes)
                }
                let work = try TemporaryFolder("fitiq-mutants")
                defer { work.remove() }
                let started = ContinuousClock.now
                let (folder, runner) = (cli.folder, cli.runner)
                let outcomes = try await Mutants.concurrently(mutants) { mutant in
                    try await Self.check(mutant, home: folder, runner: runner, work: work.url)
                }
                var table = MutationTable()
                for (mutant, (ok, detail)) in zip(mutants, outcomes) {
                    table.add(mutant.kind, ok: ok, "mutant \(mutant.index) (\(mutant.base.name)): \(detail)")
                }
                table.report(
                    "Cache files (account.json, a history segment, goals.json), mutated", seed: Mutants.seed,
                    took: ContinuousClock.now - started)
            }
        }
    }

    /// Runs the program on one mutant in a copy of the home folder: it must not die by a signal nor print
    /// an escape or control byte, keep the mutant's bytes (the file untouched, or moved aside to the name its message
    /// gives), name the file when it fails, and print JSON when it succeeds. Returns (ok, detail).
    static func check(_ mutant: Mutant, home base: URL, runner: CommandRunner, work: URL) async throws -> (Bool, String)
    {
        let home = work.appendingPathComponent("mutant-\(mutant.index)")
        try FileManager.default.copyItem(at: base, to: home)
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent(mutant.base.relative)
        let folder = path.deletingLastPathComponent()
        let name = path.lastPathComponent
        try Data(mutant.bytes).write(to: path)
        let runner = Mutants.runner(runner, movedFrom: base, to: home)
        for arguments in [["status", "--json"], ["height", "history", "--json"], ["goal", "show", "--json"]] {
            let run = try await Mutants.run(runner, arguments, timeout: .seconds(30))
            let command = arguments[0]
            if run.timedOut { return (false, "\(command): no exit within 30 s") }
            if let signal = run.signal { return (false, "\(command): killed by signal \(signal): \(run.said)") }
            if run.printedAnEscape { return (false, "\(command): an escape or control byte in the output") }
            let asides = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasPrefix(name + ".corrupt-") }.sorted()
            if let aside = asides.first {
                let moved = (try? Data(contentsOf: folder.appendingPathComponent(aside))).map(Array.init)
                if moved != mutant.bytes { return (false, "\(command): moved aside, but \(aside) holds other bytes") }
                if !run.output.contains(aside) {
                    return (false, "\(command): moved aside to \(aside), not named: \(run.said)")
                }
                return (true, "moved aside, named")
            }
            guard (try? Data(contentsOf: path)).map(Array.init) == mutant.bytes else {
                return (false, "\(command): \(name) changed or gone, no copy kept: \(run.said)")
            }
            if run.status != 0 {
                let named = run.output.contains(name)
                return (named, "\(command) exit \(run.status), file kept" + (named ? "" : ": \(run.said)"))
            }
            if JSONTree(text: run.result.stdout) == nil {
                return (false, "\(command): exit 0 but its output is not JSON")
            }
        }
        return (true, "read, file kept")
    }
}
