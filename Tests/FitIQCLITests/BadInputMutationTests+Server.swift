import FitIQCore
import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

/// The second table: the server's answers, mutated by a proxy (``MutatingProxy``) in front of the
/// development server, for each response shape.
extension BadInputMutationTests {
    /// What one shape's runs left: how many queued, what the server must hold at the end.
    struct Queued {
        var heights: Set<Int> = []  // tenths of a centimetre
        var name: String?
        var bio: String?
        var signedOut = 0
        var movedAside: Set<String> = []
    }

    /// Mutated syncs until half the table's answers (each shape its half) were mutated. After each, the
    /// program must not have died by a signal nor printed an escape or control byte, and `status --json` must read
    /// the cache (no cache file moved aside). Each sync starts with its access token expired (the server's
    /// clock moved past the token's 60 s, whatever the load), so refreshes are mutated too; a
    /// mutated answer may sign the account out: it signs in again and goes on, its queued changes kept.
    /// Then an honest sync must leave every queued value on the server.
    @Test(arguments: [DevServerConfiguration.ResponseShape.real, .spec])
    func serverAnswerMutantsLeaveEveryQueuedValueOnTheServer(_ shape: DevServerConfiguration.ResponseShape)
        async throws
    {
        let count = shape == .real ? Mutants.count - Mutants.count / 2 : Mutants.count / 2
        try await TestDevServer.with(TestDevServer.configuration(accessTokenTTL: 60, shape: shape)) { server in
            let proxy = try MutatingProxy(upstream: server.port)
            defer { proxy.stop() }
            try await withCLI { cli in
                let email = "\(shape.rawValue)@example.com"
                try await Mutants.must(
                    cli.runner,
                    [
                        "register", "--server", proxy.url, "--email", email,
                        "--name", "Mutant", "--date-of-birth", "1990-01-01",
                    ])
                let started = ContinuousClock.now
                var table = MutationTable()
                var queued = Queued()
                var (mutated, run) = (0, 0)
                while mutated < count {
                    run += 1
                    guard run <= 20 * count + 20 else {
                        table.add("no answer mutated", ok: false, "\(shape) run \(run): too few answers to mutate")
                        break
                    }
                    mutated += try await Self.mutatedSync(
                        run, shape: shape, cli: cli, email: email, server: server, proxy: proxy, queued: &queued,
                        table: &table)
                }
                table.report(
                    "Server answers (\(shape.rawValue) shape), mutated by a proxy", seed: Mutants.seed,
                    took: ContinuousClock.now - started)
                let problems = try await Self.finalSync(cli, server: server, email: email, queued: &queued)
                let summary =
                    "\(shape.rawValue): \(run) syncs, \(queued.heights.count) heights queued, signed in again "
                    + "\(queued.signedOut) times after a mutated answer; \(problems.summary)"
                print("  \(problems.failures.isEmpty ? "ok" : "FAIL") final sync, \(summary)")
                for failure in problems.failures {
                    Issue.record("seed \(Mutants.seed), \(shape.rawValue) final sync: \(failure)")
                }
            }
        }
    }

    /// One run: new queued edits every other run, then `sync` with answers mutated; returns how many were.
    static func mutatedSync(
        _ run: Int, shape: DevServerConfiguration.ResponseShape, cli: CLIHarness, email: String, server: TestDevServer,
        proxy: MutatingProxy, queued: inout Queued, table: inout MutationTable
    ) async throws -> Int {
        var random = SeededRandom("\(Mutants.seed):\(shape.rawValue):\(run)")
        var failure: String?
        if run % 2 == 1 {  // two new queued edits every other run; the cache they start from was mutated
            let tenths = 1000 + run
            let day = CalendarDate(containing: Date().addingTimeInterval(-Double(run % 365) * 86_400), in: .utc)
            let edited = try await Mutants.run(
                cli.runner, ["profile", "set", "--name", "Name \(run)", "--bio", "Bio \(run)", "--no-sync"])
            // Every other height is the current one (sent by PATCH /users/me/physical too).
            let when = run % 4 == 1 ? [] : ["--date", day.description]
            let logged = try await Mutants.run(
                cli.runner, ["height", "set", "\(tenths / 10).\(tenths % 10) cm"] + when + ["--no-sync"])
            if edited.status == 0 { (queued.name, queued.bio) = ("Name \(run)", "Bio \(run)") }
            if logged.status == 0 { queued.heights.insert(tenths) }
            if edited.status != 0 || logged.status != 0 {
                failure = "an edit failed: \((edited.status != 0 ? edited : logged).said)"
            }
        }
        // The access token has expired: the sync refreshes it first, through the proxy.
        server.clock.advance(by: .seconds(61))
        // Fewer mutants per run let more requests through to the later steps of a sync.
        proxy.mutating(random, probability: random.pick([0.25, 0.5, 0.75]))
        let synced = try await Mutants.run(cli.runner, ["sync", "--wait", "--timeout", "1"])
        let answers = proxy.honest()
        if synced.timedOut {
            failure = "sync did not exit within 60 s"
        } else if let signal = synced.signal {
            failure = "sync killed by signal \(signal): \(synced.said)"
        } else if synced.printedAnEscape {
            failure = "an escape or control byte in sync's output"
        }
        let status = try await Mutants.run(cli.runner, ["status", "--json"])
        let signedIn = status.status == 0 ? JSONTree(text: status.result.stdout)?["signedIn"]?.bool : nil
        if failure == nil && signedIn == nil {
            failure = "status --json failed afterwards (exit \(status.status)): \(status.said)"
        }
        // What the program wrote from an answer, it must read.
        let damaged = Mutants.names(under: cli.folder, containing: ".corrupt-")
        if failure == nil, let moved = damaged.subtracting(queued.movedAside).min() {
            failure = "a cache file was moved aside after the sync: \(moved) (\(synced.said))"
        }
        queued.movedAside.formUnion(damaged)
        if signedIn == false {  // a mutated 401 signs the account out: sign in again, keep going
            queued.signedOut += 1
            try await Mutants.must(cli.runner, ["login", "--email", email])
        }
        let list = answers.map { "\($0.kind): \($0.request)" }.joined(separator: ", ")
        let place = "\(shape.rawValue) run \(run) (\(list.isEmpty ? "no answer mutated" : list))"
        for answer in answers {
            table.add(answer.kind, ok: failure == nil, "\(place): \(failure ?? "ok")")
        }
        if answers.isEmpty, let failure { table.add("no answer mutated", ok: false, "\(place): \(failure)") }
        return answers.count
    }

    /// The verdict: an honest sync delivers everything queued. A height the server holds twice is
    /// counted, not failed: the client checks before sending a height again, and a mutated answer to that
    /// check can hide the entry the server holds.
    static func finalSync(_ cli: CLIHarness, server: TestDevServer, email: String, queued: inout Queued) async throws
        -> (summary: String, failures: [String])
    {
        let sync = ["sync", "--wait", "--timeout", "60"]
        var final = try await Mutants.run(cli.runner, sync, timeout: .seconds(120))
        if final.status == 3 {  // the last mutated refresh ended the session: sign in again, nothing lost
            queued.signedOut += 1
            try await Mutants.must(cli.runner, ["login", "--email", email])
            final = try await Mutants.run(cli.runner, sync, timeout: .seconds(120))
        }
        let status = JSONTree(text: try await Mutants.run(cli.runner, ["status", "--json"]).result.stdout)
        let conflicts = status?["conflicts"]?.array ?? []
        for conflict in conflicts {  // made up by a mutated read: keep this machine's value
            _ = try await Mutants.run(cli.runner, ["resolve", conflict["field"]?.string ?? "", "--keep-local"])
        }
        if !(status?["rejected"]?.array ?? []).isEmpty || !conflicts.isEmpty {
            final = try await Mutants.run(cli.runner, sync + ["--retry-rejected"], timeout: .seconds(120))
        }
        let token = try await server.accessToken(email: email, password: CLIHarness.password)
        let me = try await server.api("GET", "users/me", token: token)
        let profile = me["profile"] ?? me
        let (name, bio) = (profile["name"]?.string, profile["bio"]?.string)
        let heights = try await server.quantities(of: "height", token: token).map { Int(($0 * 10).rounded()) }
        let lost = queued.heights.subtracting(heights).sorted()
        let twice = Set(heights.filter { height in heights.count(where: { $0 == height }) > 1 }).sorted()
        var failures: [String] = []
        if final.status != 0 { failures.append("final sync exit \(final.status): \(final.said)") }
        if name != queued.name || bio != queued.bio {
            failures.append(
                "server holds name \(String(describing: name)), bio \(String(describing: bio)); queued "
                    + "\(String(describing: queued.name)), \(String(describing: queued.bio))")
        }
        if !lost.isEmpty { failures.append("\(lost.count) queued heights not on the server: \(lost.prefix(10))") }
        let summary =
            "\(heights.count) on the server (\(heights.count - Set(heights).count) twice: queued in runs "
            + "\(twice.map { $0 - 1000 })); "
            + (failures.isEmpty ? "every queued value on the server" : failures.joined(separator: "; "))
        return (summary, failures)
    }
}
