import FitIQTestSupport
import Foundation
import Testing

/// The rows of a mutation table: each mutant's kind, whether it passed, and where and why; printed as
/// a tally by kind, each failure recorded as an issue naming the seed and the mutant.
struct MutationTable: Sendable {
    struct Row: Sendable {
        let kind: String
        let ok: Bool
        let detail: String
    }

    var rows: [Row] = []

    mutating func add(_ kind: String, ok: Bool, _ detail: String) {
        rows.append(Row(kind: kind, ok: ok, detail: detail))
    }

    var failures: [Row] { rows.filter { !$0.ok } }

    /// Prints the tally by kind, and records each failure (the first 50, then how many more).
    func report(_ title: String, seed: UInt64, took: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        let kinds = Set(rows.map(\.kind)).sorted()
        var lines = [
            "",
            "\(title) (\(rows.count) mutants, \(took.components.seconds) s, seed \(seed): replayed with "
                + "FITIQ_MUTATION_SEED=\(seed))", "",
            "| \(pad("mutation", 18)) | count | ok    | failures |",
            "|\(String(repeating: "-", count: 20))|-------|-------|----------|",
        ]
        for kind in kinds {
            let mine = rows.filter { $0.kind == kind }
            let ok = mine.filter(\.ok).count
            lines.append(
                "| \(pad(kind, 18)) | \(pad("\(mine.count)", 5, right: true)) | \(pad("\(ok)", 5, right: true)) | "
                    + "\(pad("\(mine.count - ok)", 8, right: true)) |")
        }
        print(lines.joined(separator: "\n"))
        let failures = failures
        for row in failures.prefix(50) {
            Issue.record("seed \(seed), \(row.kind): \(row.detail)", sourceLocation: sourceLocation)
        }
        if failures.count > 50 {
            Issue.record("… and \(failures.count - 50) more failures (seed \(seed))", sourceLocation: sourceLocation)
        }
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}

/// What both tables share: the seed and size from the environment, how a run of `fitiq-tui` is judged.
enum Mutants {
    /// `FITIQ_MUTATION_SEED`, or a fixed seed.
    static let seed = UInt64(ProcessInfo.processInfo.environment["FITIQ_MUTATION_SEED"] ?? "") ?? 20_260_101
    /// Mutants per table: `FITIQ_MUTANTS` (`make badinput`: 1,000), else a few for every `swift test`.
    static let count = Int(ProcessInfo.processInfo.environment["FITIQ_MUTANTS"] ?? "") ?? 100

    /// One run of `fitiq-tui`, and whether it was killed for running past its deadline.
    struct Run: Sendable {
        let result: CommandRunner.Result
        let timedOut: Bool

        var status: Int32 { result.status }
        var output: String { result.stdout + result.stderr }
        /// The signal that ended the program, unless the deadline did.
        var signal: Int32? { !timedOut && result.status > 128 ? result.status - 128 : nil }
        /// An escape byte in what it printed: ESC, or CSI as a C1 character; or another control character
        /// but a line feed and a tab (``Swift/String/hasNoControlCharacters``).
        var printedAnEscape: Bool { !output.hasNoControlCharacters || output.unicodeScalars.contains("\u{9B}") }
        /// The first line it printed, cut to 100 characters (never a secret: none is printed).
        var said: String {
            let lines = (result.stderr + result.stdout).split(separator: "\n").filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            return String((lines.first ?? "").prefix(100))
        }
    }

    /// Runs `fitiq-tui` with `arguments`, the password on its standard input, killed after `timeout`.
    static func run(_ runner: CommandRunner, _ arguments: [String], timeout: Duration = .seconds(60)) async throws
        -> Run
    {
        let started = ContinuousClock.now
        let result = try await runner.run(arguments, input: CLIHarness.password + "\n", timeout: timeout)
        return Run(result: result, timedOut: result.status == 128 + SIGKILL && ContinuousClock.now - started >= timeout)
    }

    /// Runs it and throws unless it succeeded.
    @discardableResult
    static func must(_ runner: CommandRunner, _ arguments: [String]) async throws -> Run {
        let run = try await run(runner, arguments)
        guard run.status == 0 else {
            throw ChildProcess.Failure(description: "fitiq-tui \(arguments.joined(separator: " ")): \(run.result)")
        }
        return run
    }

    /// `runner` for a copy of its home folder at `home`: every variable naming a path under `base` now
    /// names the same path under `home`.
    static func runner(_ runner: CommandRunner, movedFrom base: URL, to home: URL) -> CommandRunner {
        var moved = runner
        for (name, value) in runner.environment where value.hasPrefix(base.path) {
            moved.environment[name] = home.path + value.dropFirst(base.path.count)
        }
        return moved
    }

    /// Runs `check` on every element, `width` at a time; the results in the elements' order.
    static func concurrently<Element: Sendable, Result: Sendable>(
        _ elements: [Element], width: Int = 2, _ check: @escaping @Sendable (Element) async throws -> Result
    ) async throws -> [Result] {
        try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results: [Result?] = Array(repeating: nil, count: elements.count)
            var next = 0
            func start() {
                guard next < elements.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await check(elements[index])) }
            }
            for _ in 0..<width { start() }
            while let (index, result) = try await group.next() {
                results[index] = result
                start()
            }
            return results.compactMap { $0 }
        }
    }

    /// Every file name under `folder` holding `text`.
    static func names(under folder: URL, containing text: String) -> Set<String> {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
        return Set(paths.map { ($0 as NSString).lastPathComponent }.filter { $0.contains(text) })
    }
}
