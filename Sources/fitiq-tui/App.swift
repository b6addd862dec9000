import FitIQCache
import FitIQCore
import FitIQHTTP
import Foundation
import Logging

/// The wired application of one command: cache, logger, transport and use cases.
struct App: Sendable {
    let paths: CachePaths
    let directory: JSONFileAccountDirectory
    let logger: Logger
    /// The server and the use cases on it, when a server is known.
    let server: ServerAddress?
    let accounts: Accounts?
    /// The account signed in on that server, if any (read once, here).
    let account: Account?
    let transport: HTTPTransport?

    /// Closes network connections.
    func shutdown() async {
        await transport?.shutdown()
    }

    /// The use cases, or the reason there are none.
    func requireAccounts() throws -> Accounts {
        guard let accounts else { throw server == nil ? CLIError.noServer : CLIError.noAPIKey }
        return accounts
    }

    /// The current account, or exit 3 when nobody is signed in.
    func requireAccount() throws -> Account {
        guard accounts != nil, let account else { throw SessionError.notSignedIn }
        return account
    }
}

/// Builds the application: XDG paths, the JSON cache, a file logger, and the HTTP backend for the server
/// chosen by flag > `FITIQ_SERVER` > config file > the last account signed in.
func makeApp(config: AppConfig) async throws -> App {
    let paths = CachePaths(environment: config.environment, home: config.home)
    let directory = JSONFileAccountDirectory(paths: paths)
    let sink = FileLogHandler.Sink(url: paths.logFile)
    let logger = Logger(label: "fitiq-tui", factory: { FileLogHandler(label: $0, sink: sink) })
    let file = try ConfigFile.load(from: paths.configFile)
    let configured = try (config.serverFlag ?? config.environment["FITIQ_SERVER"] ?? file?.server).map {
        try ServerAddress($0, allowInsecureHTTP: config.allowInsecureHTTP)
    }
    let current = try await directory.currentAccount(server: configured?.description)
    let server =
        try configured ?? current.map { try ServerAddress($0.server, allowInsecureHTTP: config.allowInsecureHTTP) }
    let session = try await current.asyncMap { try await directory.sessionStore(for: $0).load() } ?? nil
    let keyFile = config.apiKeyFile ?? file?.apiKeyFile
    let apiKey = try nonEmpty(config.environment["FITIQ_API_KEY"]) ?? keyFile.map(readKey) ?? session?.apiKey
    guard let server, let apiKey else {
        return App(
            paths: paths, directory: directory, logger: logger, server: server, accounts: nil, account: nil,
            transport: nil)
    }
    let transport = HTTPTransport(server: server, apiKey: apiKey, logger: logger)
    let accounts = Accounts(
        server: server.description, apiKey: apiKey, directory: directory, backend: Backend(transport: transport),
        environment: .live)
    // The same account `Accounts.current()` finds, without reading its files a second time.
    let account = try current.flatMap { key in try session.map { try accounts.account(for: key, email: $0.email) } }
    return App(
        paths: paths, directory: directory, logger: logger, server: server, accounts: accounts, account: account,
        transport: transport)
}

private func nonEmpty(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
    return text
}

private func readKey(_ path: String) throws -> String {
    let expanded = UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"])
    guard let data = FileManager.default.contents(atPath: expanded),
        let key = nonEmpty(String(decoding: data, as: UTF8.self))
    else { throw CLIError.unreadableAPIKeyFile(path: path) }
    return key
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
