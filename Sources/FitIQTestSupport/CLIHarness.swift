import FitIQDevServer
import Foundation

/// Runs `body` with the built `fitiq-tui` in folders of its own (``CLIHarness``), pointed at `server`,
/// and with the test account registered (and so signed in) on it first when `registered`; the folders
/// are removed when `body` returns or throws.
public func withCLI<T: Sendable>(
    _ server: TestDevServer? = nil, registered: Bool = false, _ body: @Sendable (inout CLIHarness) async throws -> T
) async throws -> T {
    try await CLIHarness.with { cli in
        cli.server = server?.url ?? ""
        if registered {
            let result = try await cli.register()
            guard result.status == 0 else { throw ChildProcess.Failure(description: "register: \(result)") }
        }
        return try await body(&cli)
    }
}

/// The real `fitiq-tui` binary with its own XDG folders, for a development server (``TestDevServer``).
public struct CLIHarness: Sendable {
    public static let apiKey = TestDevServer.apiKey
    public static let password = "correct horse battery"
    public let folder: URL
    public var runner: CommandRunner
    public var server: String

    /// Runs `body` with a fresh folder.
    public static func with<T: Sendable>(_ body: @Sendable (inout CLIHarness) async throws -> T) async throws -> T {
        let temporary = try TemporaryFolder("fitiq-cli")
        defer { temporary.remove() }
        let folder = temporary.url
        var harness = CLIHarness(folder: folder, runner: try runner(home: folder), server: "")
        return try await body(&harness)
    }

    /// The environment of every `fitiq-tui` a test runs: a user whose files all live under `home` (the
    /// XDG folders too), the test API key, UTC, and nothing inherited but a sanitizer run's options.
    public static func environment(home: URL) -> [String: String] {
        [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "FITIQ_API_KEY": apiKey,
            "PATH": "/usr/bin:/bin", "TZ": "UTC",
        ].merging(BuiltProducts.sanitizerOptions) { set, _ in set }
    }

    /// The built `fitiq-tui`, run as the user of ``environment(home:)``.
    public static func runner(home: URL) throws -> CommandRunner {
        CommandRunner(
            executable: try BuiltProducts.executable(named: "fitiq-tui"), environment: environment(home: home))
    }

    /// Runs `fitiq-tui` with `arguments`.
    public func run(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(60)) async throws
        -> CommandRunner.Result
    {
        try await runner.run(arguments, input: input, timeout: timeout)
    }

    /// Runs `fitiq-tui` with `arguments` under `strace`, and counts its attempts to connect to
    /// 127.0.0.1:`port` (refused or not).
    public func tracingConnections(_ arguments: [String], to port: Int) async throws
        -> (result: CommandRunner.Result, attempts: Int)
    {
        let trace = folder.appendingPathComponent("connect-\(UUID().uuidString).strace")
        let strace = CommandRunner(
            executable: URL(fileURLWithPath: "/usr/bin/strace"), environment: BuiltProducts.traced(runner.environment))
        let result = try await strace.run(
            ["-f", "-qq", "-e", "trace=connect", "-o", trace.path, runner.executable.path] + arguments)
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        return (result, lines.filter { $0.contains("htons(\(port))") && $0.contains("127.0.0.1") }.count)
    }

    /// Registers `email` on the current server.
    public func register(_ email: String = "jane@example.com") async throws -> CommandRunner.Result {
        try await run(
            ["register", "--server", server, "--email", email, "--name", "Jane Doe", "--date-of-birth", "1983-07-20"],
            input: Self.password + "\n")
    }

    /// Starts a server (keeping its data in `database`, when given, for a restart), registers the
    /// test account on it, and stops it: the account is signed in, its server away, its port held
    /// until ``TestDevServer/restart(logsRequests:changing:)``.
    public mutating func registerOnAServerThatGoesAway(database: URL? = nil) async throws -> TestDevServer {
        let started = try await TestDevServer.start(TestDevServer.configuration(database: database))
        server = started.url
        let registered = try await register()
        await started.stop()
        guard registered.status == 0 else { throw ChildProcess.Failure(description: "register: \(registered)") }
        return started
    }

    /// A second machine: the same account in folders of its own, signed in (`nil` if sign-in failed).
    public func otherMachine(_ name: String = "other-machine") async throws -> CommandRunner? {
        var other = runner
        let home = folder.appendingPathComponent(name)
        for (variable, name) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")]
        {
            other.environment[variable] = home.appendingPathComponent(name).path
        }
        let login = try await other.run(
            ["login", "--server", server, "--email", "jane@example.com"], input: Self.password + "\n")
        return login.status == 0 ? other : nil
    }

    /// The JSON object or array a command printed.
    public static func json(_ result: CommandRunner.Result) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }
}

/// What a command printed as JSON (`--json`).
extension CommandRunner {
    /// Runs `arguments` and returns the JSON array of objects it printed; throws when it printed another.
    public func jsonRows(_ arguments: [String]) async throws -> [[String: Any]] {
        let result = try await run(arguments)
        guard let rows = try? CLIHarness.json(result) as? [[String: Any]] else {
            throw ChildProcess.Failure(
                description: "\(arguments.joined(separator: " ")) printed no JSON array: \(result)")
        }
        return rows
    }

    /// Runs `arguments` and returns the JSON object it printed; throws when it printed another.
    public func jsonObject(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await run(arguments)
        guard let object = try? CLIHarness.json(result) as? [String: Any] else {
            throw ChildProcess.Failure(
                description: "\(arguments.joined(separator: " ")) printed no JSON object: \(result)")
        }
        return object
    }
}

extension CLIHarness {
    /// ``CommandRunner/jsonRows(_:)`` of this machine.
    public func jsonRows(_ arguments: [String]) async throws -> [[String: Any]] {
        try await runner.jsonRows(arguments)
    }

    /// ``CommandRunner/jsonObject(_:)`` of this machine.
    public func jsonObject(_ arguments: [String]) async throws -> [String: Any] {
        try await runner.jsonObject(arguments)
    }
}
