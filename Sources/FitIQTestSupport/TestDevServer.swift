import FitIQDevServer
@_exported import FitIQTestBasics
import Foundation
import Logging
import Synchronization

/// The development server for tests, on a free loopback port: in this process (``start(_:clock:sleep:logger:)``,
/// ``with(_:clock:sleep:_:)``), or as the built `fitiq-dev-server` in a process of its own
/// (``launch(_:clock:)``). Every server binds port 0 and gets its own temporary folder; test secrets,
/// a fixed fault seed and the cheapest bcrypt cost come from ``configuration(database:accessTokenTTL:shape:registerCreatesProfile:latencyMilliseconds:failRate:dropRate:demoPassword:)``.
public final class TestDevServer: Sendable {
    /// The API key of every test server.
    public static let apiKey = "test-api-key-0123456789"
    /// The secret that signs every test server's access tokens (the same across restarts).
    public static let jwtSecret = "test-jwt-secret-that-is-long-enough-0123456789"

    /// The base URL, `http://127.0.0.1:PORT`.
    public let url: String
    /// The port the server bound.
    public let port: Int
    /// The server's clock.
    public let clock: ManualClock
    /// The settings it runs with (its port is the one asked for: 0 unless restarted).
    public let configuration: DevServerConfiguration
    /// A fresh temporary folder of this server's own, removed by ``stop()`` (by the end of
    /// ``with(_:clock:sleep:_:)`` for its server, so a test may keep files there after stopping it).
    public let folder: URL
    private let server: Server
    private let sleep: @Sendable (Duration) async throws -> Void
    private let keepsFolder = Atomic(false)
    /// The port, held from the moment the server stops until ``restart()`` starts the next one on it
    /// (or this value ends): its clients meet a refused connection, never another test's server.
    private let portState = Mutex(PortState.serving)

    private enum PortState {
        case serving
        case held(HeldPort?)
        /// A restart took it: stopping this server again holds nothing.
        case handedOn
    }

    private enum Server: Sendable {
        case inProcess(RunningDevServer)
        case process(ServerProcess)
    }

    private init(
        url: String, port: Int, clock: ManualClock, configuration: DevServerConfiguration, folder: URL,
        server: Server, sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.url = url
        self.port = port
        self.clock = clock
        self.configuration = configuration
        self.folder = folder
        self.server = server
        self.sleep = sleep
    }

    /// Test settings: port 0 on loopback, the test secrets, a fixed fault seed and bcrypt cost 4; data
    /// in memory unless a `database` file is given.
    public static func configuration(
        database: URL? = nil, accessTokenTTL: Int = 3600, shape: DevServerConfiguration.ResponseShape = .real,
        registerCreatesProfile: Bool = false, latencyMilliseconds: Int = 0, failRate: Double = 0,
        dropRate: Double = 0, demoPassword: String? = nil
    ) -> DevServerConfiguration {
        DevServerConfiguration(
            host: "127.0.0.1", port: 0, storage: database.map { .file(path: $0.path) } ?? .inMemory, apiKey: apiKey,
            jwtSecret: jwtSecret, accessTokenTTL: accessTokenTTL, responseShape: shape,
            registerCreatesProfile: registerCreatesProfile, latencyMilliseconds: latencyMilliseconds,
            failRate: failRate, dropRate: dropRate, faultSeed: 42, bcryptCost: 4,
            demoAccount: demoPassword.map { DevServerConfiguration.DemoAccount(password: $0) })
    }

    /// Starts a server in this process and returns once it accepts connections. Its time is `clock`;
    /// its sleeps go to `sleep`, by default recorded by the clock and skipped; it logs to `logger`
    /// (by default nowhere).
    public static func start(
        _ configuration: DevServerConfiguration = configuration(), clock: ManualClock = .followingTheWallClock(),
        sleep: (@Sendable (Duration) async throws -> Void)? = nil,
        logger: Logger = Logger(label: "fitiq-dev-server", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws -> TestDevServer {
        let sleep = sleep ?? { clock.skipSleep(for: $0) }
        let folder = try makeFolder()
        do {
            let running = try await RunningDevServer.start(
                configuration, dependencies: DevServerDependencies(now: { clock.date() }, sleep: sleep), logger: logger,
                executor: OwnQueueExecutor())
            return TestDevServer(
                url: running.url, port: running.port, clock: clock, configuration: configuration, folder: folder,
                server: .inProcess(running), sleep: sleep)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Runs `body` with a server started by ``start(_:clock:sleep:logger:)``, stopped afterwards whatever happens.
    public static func with<T: Sendable>(
        _ configuration: DevServerConfiguration = configuration(), clock: ManualClock = .followingTheWallClock(),
        sleep: (@Sendable (Duration) async throws -> Void)? = nil, _ body: (TestDevServer) async throws -> T
    ) async throws -> T {
        let server = try await start(configuration, clock: clock, sleep: sleep)
        server.keepsFolder.store(true, ordering: .relaxed)
        defer { try? FileManager.default.removeItem(at: server.folder) }
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Starts the built `fitiq-dev-server` executable as a process of its own and returns once it
    /// accepts connections. It runs on its wall clock plus the time `clock` is advanced (passed in a
    /// `--clock-file` in this server's folder); its latency sleeps are real. It stops with ``stop()``,
    /// and by itself when this process ends (its standard input is a pipe from here).
    ///
    /// With `logsRequests`, it logs each request it answered (`POST /api/v1/progress 201`), which
    /// ``waitForRequest(_:within:)`` waits for. `executable` is another build of it (a release's),
    /// when given.
    public static func launch(
        _ configuration: DevServerConfiguration = configuration(), clock: ManualClock = .followingTheWallClock(),
        logsRequests: Bool = false, executable: URL? = nil
    ) async throws -> TestDevServer {
        let folder = try makeFolder()
        do {
            let clockFile = folder.appendingPathComponent("clock-offset")
            try clock.mirror(to: clockFile)
            let process = try await ServerProcess.start(
                configuration, executable: try executable ?? BuiltProducts.executable(named: "fitiq-dev-server"),
                clockFile: clockFile, folder: folder, logsRequests: logsRequests)
            return TestDevServer(
                url: "http://127.0.0.1:\(process.port)", port: process.port, clock: clock,
                configuration: configuration, folder: folder, server: .process(process),
                sleep: { clock.skipSleep(for: $0) })
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// A new server like this one (same settings, clock and kind) on the same port, for clients that
    /// remember the address; stop this one first (its port is held until now). With a `database`, the
    /// data and sessions carry over.
    ///
    /// `changing` alters the settings first (the port stays): a server with another `jwtSecret` is a
    /// stranger at the address, one that never issued the clients' tokens. A server of its own process
    /// logs its requests as this one did, unless `logsRequests` says otherwise.
    public func restart(
        logsRequests: Bool? = nil, changing: (inout DevServerConfiguration) -> Void = { _ in }
    ) async throws -> TestDevServer {
        var same = configuration
        changing(&same)
        same.port = port
        // The new server binds beside the holder, which lets go once it listens: the port is never free.
        let holder = portState.withLock { state -> HeldPort? in
            defer { state = .handedOn }
            guard case .held(let held) = state else { return nil }
            return held
        }
        defer { holder?.release() }
        switch server {
        case .inProcess: return try await Self.start(same, clock: clock, sleep: sleep)
        case .process(let process):
            return try await Self.launch(
                same, clock: clock, logsRequests: logsRequests ?? process.logsRequests, executable: process.executable)
        }
    }

    /// Kills a server running as a process outright (SIGKILL: nothing it was doing is finished), and
    /// removes its folder; stops one in this process. Its port is held until ``restart()``.
    public func kill() async {
        await takeDown { await $0.kill() }
    }

    /// Waits until a server launched with `logsRequests` has answered a request whose log line holds
    /// `text` (`POST /api/v1/progress 201`); throws after `timeout`, or at once for any other server.
    public func waitForRequest(_ text: String, within timeout: Duration = .seconds(60)) async throws {
        guard case .process(let process) = server, process.logsRequests else {
            throw ChildProcess.Failure(description: "this server does not log its requests")
        }
        try await process.waitForLine(containing: text, within: timeout)
    }

    /// Holds the port (until ``restart()``), stops the server, waits until it has let go of the port,
    /// and removes its folder. Stopping twice is harmless.
    public func stop() async {
        await takeDown { await $0.stop() }
    }

    /// Holds the port, ends the server (`ending` one of its own process), and removes its folder.
    private func takeDown(_ ending: (ServerProcess) async -> Void) async {
        holdPort()
        switch server {
        case .inProcess(let running): await running.stop()
        case .process(let process): await ending(process)
        }
        // A child being spawned may still hold a copy of the server's listening socket: it listens on.
        ChildProcess.waitForSpawnsInFlight()
        holdPort()
        if !keepsFolder.load(ordering: .relaxed) { try? FileManager.default.removeItem(at: folder) }
    }

    /// Takes the port, unless it is held already or a restart has taken it: beside the server while it
    /// still listens (so the port is never free), or, where that failed, once it has let go of it.
    private func holdPort() {
        portState.withLock { state in
            switch state {
            case .serving, .held(nil): break
            case .held(.some), .handedOn: return
            }
            // Failing to hold it only reopens the old race; the test goes on.
            state = .held(try? HeldPort.hold(port))
        }
    }

    private static func makeFolder() throws -> URL {
        try TemporaryFolder("fitiq-dev-server").url
    }
}

/// `fitiq-dev-server` running as a child process.
private final class ServerProcess: Sendable {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    let logsRequests: Bool
    let executable: URL
    private let child: ChildProcess

    private init(port: Int, logsRequests: Bool, executable: URL, child: ChildProcess) {
        self.port = port
        self.logsRequests = logsRequests
        self.executable = executable
        self.child = child
    }

    static func start(
        _ configuration: DevServerConfiguration, executable: URL, clockFile: URL, folder: URL, logsRequests: Bool
    ) async throws -> ServerProcess {
        var arguments = [
            executable.path,
            "--host", configuration.host, "--port", "\(configuration.port)", "--access-token-ttl",
            "\(configuration.accessTokenTTL)", "--refresh-token-ttl", "\(configuration.refreshTokenTTL)",
            "--response-shape", configuration.responseShape.rawValue, "--latency-ms",
            "\(configuration.latencyMilliseconds)", "--fail-rate", "\(configuration.failRate)", "--drop-rate",
            "\(configuration.dropRate)", "--fault-seed", "\(configuration.faultSeed)", "--bcrypt-cost",
            "\(configuration.bcryptCost)", "--log-level", logsRequests ? "info" : "error", "--stop-on-stdin-eof",
            "--clock-file",
            clockFile.path,
        ]
        if case .file(let path) = configuration.storage { arguments += ["--database", path] }
        if configuration.registerCreatesProfile { arguments.append("--register-creates-profile") }
        if configuration.demoAccount != nil { arguments.append("--demo-account") }
        var environment = [
            "PATH": "/usr/bin:/bin", "FITIQ_DEV_API_KEY": configuration.apiKey,
            "FITIQ_DEV_JWT_SECRET": configuration.jwtSecret,
        ].merging(BuiltProducts.sanitizerOptions) { set, _ in set }
        environment["FITIQ_DEV_DEMO_PASSWORD"] = configuration.demoAccount?.password
        // Its input is held open by this process: a server never outlives a test process that crashed.
        let log = folder.appendingPathComponent("server.log")
        // Its log joins its output when the test reads it; else it goes to a file.
        let child = try ChildProcess(
            arguments, environment: environment, input: .heldOpen, output: .lines,
            errors: logsRequests ? nil : .file(log))
        // The line that names the port comes once the server listens.
        let listening: @Sendable (String) -> Bool = { $0.hasPrefix("listening on http://") }
        let line = try? await child.waitForLines(within: .seconds(60)) { $0.contains(where: listening) }
            .first(where: listening)
        guard let line, let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            child.signal(SIGTERM)
            await child.exit(within: .seconds(20))
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failed(description: "fitiq-dev-server did not start: \(line ?? "no output")\n\(said)")
        }
        return ServerProcess(port: port, logsRequests: logsRequests, executable: executable, child: child)
    }

    func waitForLine(containing text: String, within timeout: Duration) async throws {
        try await child.waitForLines(within: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Kills the process (SIGKILL) and waits until it has ended.
    func kill() async {
        child.signal(SIGKILL)
        child.closeInput()
        await child.exit(within: .seconds(60))
    }

    /// Asks for a graceful shutdown (SIGTERM) and waits until the process has ended.
    func stop() async {
        child.signal(SIGTERM)
        child.closeInput()
        await child.exit(within: .seconds(60))
    }
}
