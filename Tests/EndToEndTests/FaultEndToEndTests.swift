import FitIQDevServer
import FitIQTestSupport
import Foundation
import Synchronization
import Testing

/// Fault injection against the built programs: the end state the outbox promises (docs/architecture.md "End
/// state after faults"). After a final sync the server holds every acknowledged edit, exactly one
/// progress entry per height change, and the cache is readable.
///
/// Each height edit sets a distinct value, so the server's entries tell which edits arrived and whether
/// any arrived twice. An edit counts as acknowledged when its command exited 0 (saved locally; the sync
/// may come later), or, in the editor, when its draft mark went after Ctrl-S. `swift test` runs each
/// scenario with 5 edits; `make faults` with `FITIQ_FAULT_EDITS=200`.
@Suite(.timeLimit(.minutes(10)))
struct FaultEndToEndTests {
    static let edits = Int(ProcessInfo.processInfo.environment["FITIQ_FAULT_EDITS"] ?? "") ?? 5

    /// `value` with one decimal, as typed.
    static func text(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// `count` distinct heights from `start` cm, 0.1 cm apart.
    static func heights(_ count: Int, from start: Double) -> [Double] {
        (0..<count).map { start + Double($0) / 10 }
    }

    @Test func aServerAbsentAtFirstGetsEveryEditOnceItStarts() async throws {
        try await FaultWorld.withAccount { world in
            await world.stop()
            try await world.queueHeights(from: 150)
            // One edit tries to deliver while the server is absent.
            try await world.setHeight(149.5, timeout: .seconds(40))
            try await world.start()
            try await world.expectNothingLost()
        }
    }

    @Test func aServerKilledMidSyncAndRestartedGetsEveryEditOnce() async throws {
        try await FaultWorld.withAccount { world in
            try await world.queueHeights(from: 150)
            // Each answer takes 100 ms, so the sync lasts long enough to be caught in the middle: the
            // server is killed once its first entry has arrived, whatever the machine's speed.
            try await world.start(logsRequests: true) { $0.latencyMilliseconds = 100 }
            let sync = try world.spawn(["sync", "--wait", "--timeout", "120"])
            try await world.server?.waitForRequest("POST /api/v1/progress 201")
            await world.server?.kill()
            try await world.start()
            await sync.exit(within: .seconds(150))
            try await world.expectNothingLost()
        }
    }

    @Test(arguments: ["fail", "drop"])
    func aServerFailingOrDroppingRequestsGetsEveryEditOnce(fault: String) async throws {
        try await FaultWorld.withAccount { world in
            try await world.start {
                if fault == "fail" { $0.failRate = 0.5 } else { $0.dropRate = 0.2 }
            }
            try await world.queueHeights(from: 150)
            _ = try await world.cli(["sync", "--wait", "--timeout", "20"])
            try await world.start()
            try await world.expectNothingLost()
        }
    }

    @Test func requestsThatOutliveTheClientsTimeoutLoseNothing() async throws {
        try await FaultWorld.withAccount { world in
            // Every request outlives the client's 10 s timeout.
            try await world.start { $0.latencyMilliseconds = 15_000 }
            for value in Self.heights(min(Self.edits, 10), from: 150) {
                try await world.setHeight(value, "--no-sync")
            }
            _ = try await world.cli(["sync"], timeout: .seconds(60))
            try await world.start()
            try await world.expectNothingLost()
        }
    }

    @Test func accessTokensExpiringBetweenEditsLoseNothing() async throws {
        try await FaultWorld.with { world in
            // Tokens that last 5 s (a second could run out between a refresh and its use on a loaded
            // machine, which rightly ends the session).
            try await world.start { $0.accessTokenTTL = 5 }
            try await world.register()
            for value in Self.heights(min(Self.edits, 10), from: 150) {
                try await world.setHeight(value)
                // The server's clock moves past the token: it is refused, and the client refreshes.
                world.clock.advance(by: .seconds(6))
            }
            try await world.expectNothingLost()
        }
    }

    @Test func aRevokedRefreshTokenMeansSigningInAgainWithNothingLost() async throws {
        try await FaultWorld.with { world in
            try await world.start { $0.accessTokenTTL = 5 }
            try await world.register()
            try await world.queueHeights(from: 150)
            // Someone uses the stored refresh token first: the client's copy is revoked.
            let session = try #require(
                SecurityEndToEndTests.files(below: world.stateFolder).first { $0.lastPathComponent == "session.json" })
            let stored = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: session)) as? [String: Any])
            let refresh = try #require(
                ((stored["session"] as? [String: Any])?["tokens"] as? [String: Any])?["refreshToken"] as? String)
            _ = try await world.server?.api(
                "POST", "auth/refresh", body: .object([.init("refresh_token", .string(refresh))]))
            world.clock.advance(by: .seconds(6))
            _ = try await world.cli(["sync"], timeout: .seconds(60))
            try await world.expectNothingLost()
        }
    }

    @Test func fitiqTUIKilledAtRandomDuringSavesLosesNothingAcknowledged() async throws {
        try await FaultWorld.withAccount { world in
            var random = SeededRandom(seed: 7)
            for value in Self.heights(Self.edits, from: 150) {
                let save = try world.spawn(["height", "set", "\(Self.text(value)) cm"])
                if Double.random(in: 0..<1, using: &random) < 0.3 || value == 150 {
                    // Killed at a moment told by what it holds open (the first save at once).
                    let moment =
                        value == 150 ? .atOnce : ProcessMoment.allCases.randomElement(using: &random) ?? .atOnce
                    await moment.wait(for: save.pid, hasEnded: { save.hasEnded })
                    save.signal(SIGKILL)
                }
                if await save.exit() == 0 { world.acknowledge(value) }
            }
            try await world.expectNothingLost()
        }
    }

    @Test func twoCommandLinesOnOneAccountAtOnceLoseNothing() async throws {
        try await FaultWorld.withAccount { world in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for start in [150.0, 200.0] {
                    group.addTask {
                        for value in Self.heights(max(1, Self.edits / 2), from: start) {
                            try await world.setHeight(value)
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await world.expectNothingLost()
        }
    }

    @Test func theEditorAndCommandLinesOnOneAccountAtOnceLoseNothing() async throws {
        try await FaultWorld.withAccount { world in
            let editor = try world.openEditor()
            defer { editor.kill() }
            try await editor.waitFor("Fault")
            let writer = Task {
                for value in Self.heights(Self.edits, from: 150) { try await world.setHeight(value) }
            }
            try await editor.send("Tab")
            var bio = ""
            for index in 0..<max(3, Self.edits / 10) {
                bio = "bio number \(index)"
                try await editor.send("Enter")
                try await editor.waitFor("Enter confirm")
                try await editor.send("C-u")
                try await editor.type(bio)
                try await editor.send("Enter", "C-s")
                try await editor.waitUntil("the bio saved") { $0.showsSaved("Bio", bio) }
            }
            try await writer.value
            try await editor.send("q")
            #expect(try await world.e2e.waitForExitStatus(of: editor) == 0)
            try await world.expectNothingLost()
            let shown = try await world.cli(["profile", "show", "--json"])
            let profile = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            #expect(profile?["bio"] as? String == bio, "\(shown)")
        }
    }

    @Test func theEditorKilledAtRandomAroundCtrlSLosesNothingAcknowledged() async throws {
        try await FaultWorld.withAccount { world in
            var random = SeededRandom(seed: 11)
            var editor: TmuxSession?
            defer { editor?.kill() }
            for (index, value) in Self.heights(Self.edits, from: 150).enumerated() {
                let open: TmuxSession
                if let editor { open = editor } else { open = try await world.openHeight() }
                editor = open
                if Double.random(in: 0..<1, using: &random) < 0.3 || index == 2 {
                    let moment = ProcessMoment.allCases.randomElement(using: &random) ?? .atOnce
                    try await world.saveHeight(value, in: open, killingAt: moment)
                    open.kill()
                    editor = nil
                } else if try await world.saveHeight(value, in: open) {
                    world.acknowledge(value)
                }
            }
            try await world.expectNothingLost()
        }
    }

    @Test func twoEditorsOnOneAccountAtOnceLoseNothing() async throws {
        try await FaultWorld.withAccount { world in
            let editors = [try await world.openHeight(), try await world.openHeight()]
            defer { editors.forEach { $0.kill() } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (editor, start) in zip(editors, [150.0, 200.0]) {
                    group.addTask {
                        for value in Self.heights(max(1, Self.edits / 2), from: start) {
                            if try await world.saveHeight(value, in: editor) { world.acknowledge(value) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await world.expectNothingLost()
        }
    }

    /// The cache's disk fills up: a save fails with a clear message and the old cache stays as it was.
    @Test(.enabled(if: getuid() == 0, "mounting a small file system needs root"))
    func aFullDiskRefusesTheSaveClearlyAndKeepsTheCache() async throws {
        try await FaultWorld.with { world in
            let disk = world.e2e.folder.appendingPathComponent("small-disk")
            try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
            let mount = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/mount"), environment: [:])
            #expect(try await mount.run(["-t", "tmpfs", "-o", "size=512k", "tmpfs", disk.path]).status == 0)
            defer {
                _ = try? ChildProcess.run(["/usr/bin/umount", disk.path], environment: [:])
            }
            world.environment["XDG_DATA_HOME"] = disk.path
            try await world.start()
            try await world.register()
            let count = min(Self.edits, 10)
            for value in Self.heights(count / 2, from: 150) { try await world.setHeight(value) }
            let account = try #require(
                SecurityEndToEndTests.files(below: disk).first { $0.lastPathComponent == "account.json" })
            let before = try Data(contentsOf: account)
            let filler = disk.appendingPathComponent("filler")
            let descriptor = open(filler.path, O_WRONLY | O_CREAT, 0o600)
            let zeros = [UInt8](repeating: 0, count: 4096)
            while write(descriptor, zeros, zeros.count) > 0 {}
            close(descriptor)

            let refused = try await world.cli(["height", "set", "190.0 cm"])
            #expect(refused.status != 0, "\(refused)")
            let said = refused.stderr.lowercased()
            #expect(said.contains("space") || said.contains("disk"), "\(refused)")
            #expect(try Data(contentsOf: account) == before)
            try FileManager.default.removeItem(at: filler)
            for value in Self.heights(count - count / 2, from: 170) { try await world.setHeight(value) }
            try await world.expectNothingLost()
        }
    }
}

/// One scenario's account (folders of its own) and server: the built `fitiq-dev-server` on a port the
/// kernel gave the first one (none is chosen ahead, which another test could take first), kept across
/// restarts, its data in a file.
final class FaultWorld: Sendable {
    let e2e: EndToEnd
    let clock = ManualClock.followingTheWallClock()
    private let state = Mutex(State())

    private struct State {
        /// The server running now, if any.
        var server: TestDevServer?
        /// The server started last, running or stopped: every restart is its restart, on its port.
        var last: TestDevServer?
        var acknowledged: [Double] = []
        var environment: [String: String] = [:]
    }

    private init(e2e: EndToEnd) {
        self.e2e = e2e
        state.withLock { $0.environment = e2e.environment }
    }

    /// ``with(_:)`` with the server started and the test account registered on it.
    static func withAccount(_ body: @Sendable (FaultWorld) async throws -> Void) async throws {
        try await with { world in
            try await world.start()
            try await world.register()
            try await body(world)
        }
    }

    static func with(_ body: @Sendable (FaultWorld) async throws -> Void) async throws {
        try await EndToEnd.with { e2e in
            let world = FaultWorld(e2e: e2e)
            do {
                try await body(world)
            } catch {
                await world.stop()
                throw error
            }
            await world.stop()
        }
    }

    var server: TestDevServer? { state.withLock { $0.server } }

    var environment: [String: String] {
        get { state.withLock { $0.environment } }
        set { state.withLock { $0.environment = newValue } }
    }

    var stateFolder: URL { URL(fileURLWithPath: environment["XDG_STATE_HOME"] ?? "") }

    /// (Re)starts the server with the test settings that `change` adjusts; its data carries over.
    func start(logsRequests: Bool = false, _ change: (inout DevServerConfiguration) -> Void = { _ in }) async throws {
        await stop()
        var configuration = TestDevServer.configuration(database: e2e.database)
        change(&configuration)
        // The first server's port is held while it is down, and handed to the next one.
        let started: TestDevServer
        if let last = state.withLock({ $0.last }) {
            started = try await last.restart(logsRequests: logsRequests) { $0 = configuration }
        } else {
            started = try await TestDevServer.launch(configuration, clock: clock, logsRequests: logsRequests)
        }
        state.withLock { state in
            state.server = started
            if state.last == nil { state.environment["FITIQ_SERVER"] = started.url }
            state.last = started
        }
    }

    func stop() async {
        await state.withLock { state in
            defer { state.server = nil }
            return state.server
        }?.stop()
    }

    func cli(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(120)) async throws
        -> CommandRunner.Result
    {
        let environment = self.environment
        return try await e2e.runner { $0 = environment }.run(arguments, input: input, timeout: timeout)
    }

    func spawn(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess([e2e.executable.path] + arguments, environment: environment, output: .discarded)
    }

    func register() async throws {
        let registered = try await cli(
            ["register", "--email", EndToEnd.email, "--name", "Fault", "--date-of-birth", "1990-01-01"],
            input: EndToEnd.password + "\n")
        guard registered.status == 0 else { throw ChildProcess.Failure(description: "register: \(registered)") }
    }

    func acknowledge(_ value: Double) {
        state.withLock { $0.acknowledged.append((value * 10).rounded() / 10) }
    }

    /// Saves the scenario's heights from `start` on (``FaultEndToEndTests/edits`` of them, 0.1 cm apart)
    /// without sending them.
    func queueHeights(from start: Double) async throws {
        for value in FaultEndToEndTests.heights(FaultEndToEndTests.edits, from: start) {
            try await setHeight(value, "--no-sync")
        }
    }

    /// `height set`; acknowledged when it exits 0.
    @discardableResult
    func setHeight(_ value: Double, _ flags: String..., timeout: Duration = .seconds(120)) async throws
        -> CommandRunner.Result
    {
        let result = try await cli(["height", "set", "\(FaultEndToEndTests.text(value)) cm"] + flags, timeout: timeout)
        if result.status == 0 { acknowledge(value) }
        return result
    }

    /// The editor on this account, its focus moved to the height (name, bio, units, language, height).
    func openHeight() async throws -> TmuxSession {
        let editor = try openEditor()
        try await editor.waitFor("›Name")
        try await editor.send("Tab", "Tab", "Tab", "Tab")
        try await editor.waitFor("›Height")
        return editor
    }

    func openEditor() throws -> TmuxSession {
        try e2e.openTUI(arguments: [], extraEnvironment: environment)
    }

    /// Types a height and saves it; whether the screen showed it saved (the draft mark gone; the value
    /// shown may already be another editor's newer one). With `killingAt`, the editor is killed after
    /// Ctrl-S instead, at that moment of its save (or when the moment was not seen within the hang guard).
    @discardableResult
    func saveHeight(_ value: Double, in editor: TmuxSession, killingAt moment: ProcessMoment? = nil) async throws
        -> Bool
    {
        let text = FaultEndToEndTests.text(value)
        try await editor.editField("Height", replacing: true, typing: "\(text) cm")
        if let moment {
            let program = ProcessTree.descendants(of: editor.panePID).first {
                ProcessTree.name(of: $0)?.hasPrefix("fitiq-tui") == true
            }
            try await editor.send("C-s")
            if let program {
                await moment.wait(for: program, hasEnded: { !ProcessTree.isAlive(program) }, within: .seconds(5))
                kill(program, SIGKILL)
            }
            return false
        }
        try await editor.send("C-s")
        try await editor.waitUntil("the height saved") { rows in
            rows.contains { $0.contains("›Height") && $0.contains(" cm") && !$0.contains(" *") }
        }
        return true
    }

    /// A final sync (signing in again when a scenario signed the account out), then: every
    /// acknowledged edit on the server, none twice, and the cache readable.
    func expectNothingLost(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var synced = try await cli(["sync", "--wait", "--timeout", "60"])
        if synced.status == 3 {
            _ = try await cli(["login", "--email", EndToEnd.email], input: EndToEnd.password + "\n")
            synced = try await cli(["sync", "--wait", "--timeout", "60"])
        }
        #expect(synced.status == 0, "sync --wait: \(synced)", sourceLocation: sourceLocation)
        // Read with the test's settings: a token that lasts a second (whole seconds: it may have a tenth
        // left when issued) can run out between the sign-in and the reading on a loaded machine.
        if let scenario = self.server,
            scenario.configuration.accessTokenTTL < TestDevServer.configuration().accessTokenTTL
        {
            try await start()
        }
        let server = try #require(self.server, sourceLocation: sourceLocation)
        let onServer = try await server.snapshot().heightEntries.map { ($0 * 10).rounded() / 10 }
        let acknowledged = Set(state.withLock { $0.acknowledged })
        // Every value was set once, so any repeat on the server is a duplicate.
        #expect(
            onServer.count == Set(onServer).count, "duplicates: \(onServer.sorted())", sourceLocation: sourceLocation)
        #expect(
            acknowledged.subtracting(onServer).isEmpty, "lost: \(acknowledged.subtracting(onServer).sorted())",
            sourceLocation: sourceLocation)
        let status = try await cli(["status", "--json"])
        #expect(status.status == 0, "\(status)", sourceLocation: sourceLocation)
        let accounts = SecurityEndToEndTests.files(below: URL(fileURLWithPath: environment["XDG_DATA_HOME"] ?? ""))
            .filter { $0.lastPathComponent == "account.json" }
        #expect(!accounts.isEmpty, sourceLocation: sourceLocation)
        for account in accounts {
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(contentsOf: account))) != nil,
                "\(account.path) unreadable",
                sourceLocation: sourceLocation)
        }
    }
}

/// A small seeded generator (SplitMix64): the same kills in every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
