import ArgumentParser
import FitIQDevServer
import Foundation
import Logging

/// `fitiq-dev-server`: runs the FitIQ backend stand-in on loopback.
@main
struct DevServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitiq-dev-server",
        abstract: "Run a local stand-in for the FitIQ backend (development and tests only).",
        discussion: """
            Secrets come from the environment: FITIQ_DEV_API_KEY (required unless --api-key is given), \
            FITIQ_DEV_JWT_SECRET (optional; random per run when unset) and FITIQ_DEV_DEMO_PASSWORD \
            (required with --demo-account). The first line on stdout is 'listening on http://HOST:PORT'.
            """
    )

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free port.")
    var port = 8080

    @Option(help: "SQLite file that keeps data across restarts (default: a fresh in-memory database).")
    var database: String?

    @Option(help: "API key clients must send in X-API-Key (prefer FITIQ_DEV_API_KEY: argv is visible to others).")
    var apiKey: String?

    @Option(help: "HS256 secret for access tokens (prefer FITIQ_DEV_JWT_SECRET).")
    var jwtSecret: String?

    @Option(help: "Access token lifetime in seconds.")
    var accessTokenTTL = 3600

    @Option(help: "Refresh token lifetime in seconds.")
    var refreshTokenTTL = 30 * 24 * 3600

    @Option(help: "Response bodies: 'real' (what production sends) or 'spec' (the written OpenAPI shapes).")
    var responseShape: DevServerConfiguration.ResponseShape = .real

    @Flag(help: "Registration also creates the profile; POST /users/me then answers 409.")
    var registerCreatesProfile = false

    @Option(name: .customLong("latency-ms"), help: "Delay added to every API request, in milliseconds.")
    var latencyMilliseconds = 0

    @Option(help: "Share of API requests answered 503 without doing anything (0...1).")
    var failRate = 0.0

    @Option(help: "Share of API requests whose connection is closed, unanswered, after the work is done (0...1).")
    var dropRate = 0.0

    @Option(help: "Seed for the fault decisions (default: random).")
    var faultSeed: UInt64?

    @Flag(
        help:
            "Create demo@fitiq.dev (password from FITIQ_DEV_DEMO_PASSWORD) with a profile and a year of heights, weights and body fat."
    )
    var demoAccount = false

    @Option(help: "For benchmarks: the account --seed-heights and --seed-weights add a history to at start-up.")
    var seedEmail: String?

    @Option(help: "Height entries to add to --seed-email's history at start-up, over the past ten years.")
    var seedHeights = 0

    @Option(help: "Weight entries to add to --seed-email's history at start-up, over the past ten years.")
    var seedWeights = 0

    @Option(
        help: """
            For benchmarks: days of one entry a day of every other type the server records (body fat, \
            steps, water, sleep, food, heart, mood…) to add to --seed-email's history, up to now.
            """)
    var seedEveryMetricDays = 0

    @Option(
        help: """
            How the seeded entries lie in time: even (over the past ten years) or production (heights 12 \
            hours apart ending three years ago, weights daily up to now).
            """)
    var seedShape = "even"

    @Option(help: "bcrypt cost for stored passwords (4...31; each step doubles the time).")
    var bcryptCost: UInt8 = 8

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Flag(help: "Shut down when standard input reaches end of file (a parent holding the pipe has exited).")
    var stopOnStdinEOF = false

    @Option(
        help: """
            For tests: a file holding a number of seconds added to the server's clock, read each time the \
            server needs the time, so a test moves the clock (token expiry) by rewriting the file instead of \
            waiting. A missing or empty file adds nothing.
            """)
    var clockFile: String?

    func validate() throws {
        guard seedHeights >= 0, seedWeights >= 0, seedEveryMetricDays >= 0 else {
            throw ValidationError("--seed-heights and --seed-weights must be 0 or more.")
        }
        guard DevServerConfiguration.SeedHistory.Shape(rawValue: seedShape) != nil else {
            throw ValidationError("--seed-shape must be even or production.")
        }
        if seedEmail == nil && (seedHeights > 0 || seedWeights > 0 || seedEveryMetricDays > 0) {
            throw ValidationError("--seed-heights and --seed-weights need --seed-email: the account to add them to.")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "fitiq-dev-server")
        logger.logLevel = logLevel
        do {
            let secrets = try DevServerSecrets.resolve(
                apiKeyFlag: apiKey, jwtSecretFlag: jwtSecret, demoAccount: demoAccount,
                environment: ProcessInfo.processInfo.environment)
            var configuration = DevServerConfiguration(
                host: host, port: port, storage: database.map { .file(path: $0) } ?? .inMemory,
                apiKey: secrets.apiKey, jwtSecret: secrets.jwtSecret, accessTokenTTL: accessTokenTTL,
                refreshTokenTTL: refreshTokenTTL, responseShape: responseShape,
                registerCreatesProfile: registerCreatesProfile, latencyMilliseconds: latencyMilliseconds,
                failRate: failRate, dropRate: dropRate, faultSeed: faultSeed ?? UInt64.random(in: .min ... .max),
                bcryptCost: bcryptCost,
                demoAccount: secrets.demoPassword.map { DevServerConfiguration.DemoAccount(password: $0) }
            )
            if let seedEmail {
                configuration.seedHistory = .init(
                    email: seedEmail, heights: seedHeights, weights: seedWeights,
                    shape: .init(rawValue: seedShape) ?? .even)
                configuration.seedHistory?.everyMetricDays = seedEveryMetricDays
            }
            let host = host
            let dependencies = clockFile.map(ClockFile.init(path:)).map(\.dependencies) ?? .live
            let app = try await DevServer.makeApplication(
                configuration: configuration, dependencies: dependencies, logger: logger
            ) { port in
                FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
            }
            if stopOnStdinEOF { Self.stopWhenStandardInputCloses() }
            try await app.runService()
        } catch let error as DevServerSetupError {
            FileHandle.standardError.write(Data("fitiq-dev-server: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}

extension DevServerCommand {
    /// Reads standard input until it closes, then asks for the same graceful shutdown as SIGTERM. A parent
    /// that holds the other end of the pipe closes it when it exits, however it exits (even SIGKILL).
    static func stopWhenStandardInputCloses() {
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            kill(getpid(), SIGTERM)
        }
        thread.start()
    }
}

/// `--clock-file`: the wall clock plus the offset in seconds that the file holds.
struct ClockFile: Sendable {
    let path: String

    /// The offset the file holds now (0 when it is missing, empty or unreadable).
    var offset: TimeInterval {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return TimeInterval(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 0
    }

    var dependencies: DevServerDependencies {
        let live = DevServerDependencies.live
        return DevServerDependencies(now: { Date().addingTimeInterval(offset) }, sleep: live.sleep)
    }
}

extension DevServerConfiguration.ResponseShape: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
