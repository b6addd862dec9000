import ArgumentParser
import FitIQCache
import FitIQCatalogs
import FitIQCore
import FitIQHTTP
import FitIQLocalization
import FitIQTUI
import FitIQWords
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try fitiq-tui against a local development server with a demo account.",
        discussion: """
            Starts fitiq-dev-server on 127.0.0.1 (a free port) with a demo account that has a profile and a \
            year of heights, weights and body fat, signs in with a throw-away cache, and opens the editor. Everything is \
            removed when you quit. A second account, family@fitiq.dev, is signed in beside it: \
            --account family@fitiq.dev (or FITIQ_ACCOUNT) opens it, and :account switches.
            """)

    @OptionGroup var editorOptions: EditorOptions
    /// `--account EMAIL` (demo@fitiq.dev or family@fitiq.dev), before or after `demo`; the demo's own
    /// server is used whatever `--server` says. (The group shares the root command's, as
    /// ``EditorOptions`` does, so the option is read wherever it is given.)
    @OptionGroup(visibility: .hidden) var globals: GlobalOptions

    /// The second account signed in beside the demo account.
    static let familyEmail = "family@fitiq.dev"

    func run() async throws {
        let temporary = FileManager.default.temporaryDirectory
        Self.removeAbandonedFolders(in: temporary)
        let pid = LocalProcesses.current?.pid ?? 0
        let folder = temporary.appendingPathComponent("\(Self.folderPrefix)\(pid)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { Self.remove(folder) }
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
            environment: .live(timeZone: .system))
        do {
            let environment = ProcessInfo.processInfo.environment
            // The family account first: the demo account, signed in last, is the default.
            let family = try await accounts.register(
                email: Self.familyEmail, password: Self.secret(), name: "Sam Demo", dateOfBirth: "2012-04-09")
            if let error = family.profileError { throw error }
            let signedIn = try await accounts.signIn(email: "demo@fitiq.dev", password: password)
            if let error = signedIn.profileError { throw error }
            let named = globals.account ?? environment["FITIQ_ACCOUNT"].flatMap { $0.isEmpty ? nil : $0 }
            let chosen = try await named.asyncMap { try await accounts.account(email: $0) } ?? signedIn.account
            // What is said before the editor opens (a terminal type's notice, plain mode's reason) speaks
            // FITIQ_LANG or the environment's language: the profile is not read yet.
            let localizer = Catalogs.embedded.localizer(LanguageSettings(environment: environment), profile: nil)
            try await speaking(localizer) {
                try await TUILauncher.open(
                    accounts: accounts, account: chosen,
                    plain: PlainMode.isWanted(flag: editorOptions.plain, environment: environment),
                    mouse: EditorOptions.wantsMouse(flag: editorOptions.noMouse, environment: environment, config: nil),
                    environment: environment)
            }
        } catch {
            await transport.shutdown()
            throw report(error)
        }
        await transport.shutdown()
    }

    static let folderPrefix = "fitiq-demo-"

    /// Removes the demo's folder. Nothing writes there any more: the editor's end waited for its
    /// background sync (``EditorLoop/finish()``).
    static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes the throw-away caches of demo runs whose process is gone (killed before it could clean up).
    /// Their tokens are worthless already: the server that signed them stopped with its parent.
    static func removeAbandonedFolders(in temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let rest = name.dropFirst(folderPrefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0 else { continue }
            if !LocalProcesses.isRunning(pid: pid) {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }

    /// A random secret for this run only.
    static func secret() -> String {
        (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined()
    }
}

/// `fitiq-dev-server` as a child process, the only one fitiq-tui starts; the API key and demo password
/// travel in its environment, never on its command line. It stops when this process ends, however it
/// ends: it watches its standard input, whose only writer (`lifeline`) this process holds.
struct DevServerProcess {
    let pid: pid_t
    let url: String
    /// The write end of the server's standard input.
    private let lifeline: Int32
    /// The read end of its standard output (kept open: the server may still write to it).
    private let output: Int32

    static func start(apiKey: String, demoPassword: String) throws -> DevServerProcess {
        // Next to this program's file (not argv[0]: run through PATH, that is a bare name).
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("fitiq-dev-server").path
        guard access(binary, X_OK) == 0 else { throw DemoError.serverMissing(binary) }
        var input: [Int32] = [0, 0]
        var output: [Int32] = [0, 0]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw DemoError.serverDidNotStart(String(cString: strerror(errno)))
        }
        // Only the child's copies (made by dup2 below) stay open in it: it must not hold its own
        // lifeline's write end, or its standard input would never end.
        for descriptor in input + output { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment = ProcessInfo.processInfo.environment
        environment["FITIQ_DEV_API_KEY"] = apiKey
        environment["FITIQ_DEV_DEMO_PASSWORD"] = demoPassword
        let arguments = [binary, "--port", "0", "--demo-account", "--log-level", "error", "--stop-on-stdin-eof"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard spawned == 0 else {
            close(input[1])
            close(output[0])
            throw DemoError.serverDidNotStart(String(cString: strerror(spawned)))
        }
        let server = DevServerProcess(pid: pid, url: "", lifeline: input[1], output: output[0])
        // The first line is `listening on http://127.0.0.1:PORT`.
        let line = server.firstLine()
        guard line.hasPrefix("listening on "), let url = line.split(separator: " ").last else {
            server.stop()
            throw DemoError.serverDidNotStart(TextSanitizer.sanitize(line))
        }
        return DevServerProcess(pid: pid, url: String(url), lifeline: input[1], output: output[0])
    }

    /// The server's first line of output, without its newline (at most 4 KiB).
    private func firstLine() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(output, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Stops the server and waits for it.
    func stop() {
        close(lifeline)
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        close(output)
    }
}

enum DemoError: Error, CustomStringConvertible {
    case serverMissing(String)
    case serverDidNotStart(String)

    var description: String {
        switch self {
        case .serverMissing(let path):
            tr(
                "The development server is missing at {path}: install the Debian package fitiq-dev-server (made beside fitiq-tui's by `make deb`), or build it with `swift build`.",
                ["path": path])
        case .serverDidNotStart(let line): tr("The development server did not start (it said: {line}).", ["line": line])
        }
    }
}
