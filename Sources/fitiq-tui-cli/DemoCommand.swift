import ArgumentParser
import FitIQCache
import FitIQCore
import FitIQHTTP
import FitIQLaunch
import FitIQTUI
import Foundation
import Logging

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try fitiq-tui against a local development server with a demo account.",
        discussion: """
            Starts fitiq-dev-server on 127.0.0.1 (a free port) with a demo account that has a profile and a \
            year of height history, signs in with a throw-away cache, and opens the editor. Everything is \
            removed when you quit.
            """)

    func run() async throws {
        let temporary = FileManager.default.temporaryDirectory
        Self.removeAbandonedFolders(in: temporary)
        let folder = temporary.appendingPathComponent("\(Self.folderPrefix)\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let apiKey = Self.secret()
        let password = Self.secret()
        let server = try DevServerProcess.start(apiKey: apiKey, demoPassword: password)
        defer { server.stop() }
        let paths = CachePaths(root: folder)
        let transport = HTTPTransport(
            server: try ServerAddress(server.url), apiKey: apiKey,
            logger: Logger(label: "fitiq-demo", factory: { _ in SwiftLogNoOpLogHandler() }))
        let accounts = Accounts(
            server: try ServerAddress(server.url).description, apiKey: apiKey,
            directory: JSONFileAccountDirectory(paths: paths), backend: Backend(transport: transport),
            environment: .live)
        do {
            let signedIn = try await accounts.signIn(email: "demo@fitiq.dev", password: password)
            if let error = signedIn.profileError { throw error }
            try await TUILauncher.run(
                accounts: accounts, account: signedIn.account, network: InProcessNetwork(accounts: accounts),
                environment: ProcessInfo.processInfo.environment)
        } catch {
            await transport.shutdown()
            throw report(error)
        }
        await transport.shutdown()
    }

    static let folderPrefix = "fitiq-demo-"

    /// Removes the throw-away caches of demo runs whose process is gone (killed before it could clean up).
    /// Their tokens are worthless already: the server that signed them stopped with its parent.
    static func removeAbandonedFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0 else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }

    /// A random secret for this run only.
    static func secret() -> String {
        (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }
}

/// `fitiq-dev-server` as a child process; the API key and demo password travel in its environment,
/// never on its command line.
struct DevServerProcess {
    let process: Process
    let url: String
    /// The write end of the server's stdin, held open for as long as this process lives.
    let lifeline: Pipe

    static func start(apiKey: String, demoPassword: String) throws -> DevServerProcess {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("fitiq-dev-server")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw DemoError.serverMissing(binary.path)
        }
        let process = Process()
        process.executableURL = binary
        // The server stops when this process ends, however it ends: it watches its stdin pipe.
        process.arguments = ["--port", "0", "--demo-account", "--log-level", "error", "--stop-on-stdin-eof"]
        var environment = ProcessInfo.processInfo.environment
        environment["FITIQ_DEV_API_KEY"] = apiKey
        environment["FITIQ_DEV_DEMO_PASSWORD"] = demoPassword
        process.environment = environment
        let output = Pipe()
        let lifeline = Pipe()
        process.standardInput = lifeline
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is `listening on http://127.0.0.1:PORT`.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("listening on "), let url = text.split(separator: " ").last else {
            process.terminate()
            throw DemoError.serverDidNotStart(TextSanitizer.sanitize(text))
        }
        return DevServerProcess(process: process, url: String(url), lifeline: lifeline)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

enum DemoError: Error, CustomStringConvertible {
    case serverMissing(String)
    case serverDidNotStart(String)

    var description: String {
        switch self {
        case .serverMissing(let path): "The development server is missing at \(path); build it with `swift build`."
        case .serverDidNotStart(let line): "The development server did not start (it said: \(line))."
        }
    }
}
