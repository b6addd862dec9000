import FitIQCache
import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Everything the composition roots need from the outside world, injectable for tests.
struct AppConfig: Sendable {
    var environment: [String: String]
    var home: URL
    var serverFlag: String?
    var apiKeyFile: String?
    var allowInsecureHTTP: Bool
    /// `--account EMAIL`: the account of this command (else `FITIQ_ACCOUNT`, else the default).
    var accountFlag: String?

    init(
        environment: [String: String], home: URL, serverFlag: String? = nil, apiKeyFile: String? = nil,
        allowInsecureHTTP: Bool = false
    ) {
        self.environment = environment
        self.home = home
        self.serverFlag = serverFlag
        self.apiKeyFile = apiKeyFile
        self.allowInsecureHTTP = allowInsecureHTTP
    }

    /// The configuration of this process with these option values (none given: the defaults).
    static func live(serverFlag: String? = nil, apiKeyFile: String? = nil, allowInsecureHTTP: Bool = false)
        -> AppConfig
    {
        let environment = ProcessInfo.processInfo.environment
        return AppConfig(
            environment: environment, home: home(environment: environment), serverFlag: serverFlag,
            apiKeyFile: apiKeyFile, allowInsecureHTTP: allowInsecureHTTP)
    }

    /// `$HOME`, as the shell and every other program take it; the password database's entry only when
    /// it is unset or empty (asking that database first costs the name service's socket and files).
    static func home(environment: [String: String]) -> URL {
        guard let home = environment["HOME"], !home.isEmpty else {
            return FileManager.default.homeDirectoryForCurrentUser
        }
        return URL(fileURLWithPath: home, isDirectory: true)
    }
}

/// What this machine knows before any network call: the cache, the server, the API key and the
/// account signed in there.
struct LocalSetup: Sendable {
    let paths: CachePaths
    let directory: JSONFileAccountDirectory
    let server: ServerAddress?
    let apiKey: String?
    /// The account of this command (named by `--account` or `FITIQ_ACCOUNT`, else the default on
    /// `server`), and its session.
    let current: AccountKey?
    let session: Session?
    /// The default account on `server` (`accounts use EMAIL`), whichever account this command uses.
    let defaultAccount: AccountKey?
    /// The account named by `--account` or `FITIQ_ACCOUNT` when none of this machine's has that email:
    /// ``App/requireAccount()`` names the accounts there are.
    let unknownAccount: AccountError?
    /// `FITIQ_SYNC_IN_FLIGHT`: how many history entries (of any metric) are sent at once (1 sends one after another).
    let progressPostsInFlight: Int
    /// The config file's `"mouse"`, if it says.
    var mouseInConfig: Bool? = nil

    /// Resolves the server by flag > `FITIQ_SERVER` > config file > the last account signed in, and the
    /// API key by `FITIQ_API_KEY` > key file (flag, then config file) > the one stored at sign-in.
    static func resolve(_ config: AppConfig) async throws -> LocalSetup {
        let paths = CachePaths(environment: config.environment, home: config.home)
        let directory = JSONFileAccountDirectory(paths: paths)
        let file = try ConfigFile.load(from: paths.configFile)
        let configured = try (config.serverFlag ?? config.environment["FITIQ_SERVER"] ?? file?.server).map {
            try ServerAddress($0, allowInsecureHTTP: config.allowInsecureHTTP)
        }
        let defaultAccount = try await directory.currentAccount(server: configured?.description)
        var current = defaultAccount
        var unknownAccount: AccountError?
        var named: AccountKey?
        if let email = nonEmpty(config.accountFlag) ?? nonEmpty(config.environment["FITIQ_ACCOUNT"]) {
            // The account brings its own server, unless --server names one: then it must be there.
            var known = try await directory.knownAccounts()
            if config.serverFlag != nil { known = known.filter { $0.key.server == configured?.description } }
            let found = KnownAccount.find(email, in: known, preferring: configured?.description)
            current = found?.key
            named = found?.key
            if found == nil { unknownAccount = .unknownAccount(email, known: known) }
        }
        let server =
            try named.map { try ServerAddress($0.server, allowInsecureHTTP: config.allowInsecureHTTP) }
            ?? configured
            ?? current.map { try ServerAddress($0.server, allowInsecureHTTP: config.allowInsecureHTTP) }
        let session = try await current.asyncMap { try await directory.sessionStore(for: $0).load() } ?? nil
        let keyFile = config.apiKeyFile ?? file?.apiKeyFile
        let apiKey =
            try nonEmpty(config.environment["FITIQ_API_KEY"])
            ?? keyFile.map { try readKey($0, home: config.environment["HOME"]) } ?? session?.apiKey
        let inFlight = try config.environment["FITIQ_SYNC_IN_FLIGHT"].map(Self.parseInFlight)
        return LocalSetup(
            paths: paths, directory: directory, server: server, apiKey: apiKey, current: current, session: session,
            defaultAccount: defaultAccount, unknownAccount: unknownAccount,
            progressPostsInFlight: inFlight ?? ProgressWindow.defaultLimit, mouseInConfig: file?.mouse)
    }

    static func parseInFlight(_ text: String) throws -> Int {
        guard let value = Int(text.trimmingWhitespace()), (1...ProgressWindow.maximumLimit).contains(value) else {
            throw LaunchError.badInFlight(TextSanitizer.sanitize(text))
        }
        return value
    }

    /// The use cases on the server with `backend`, and the account signed in there.
    func accounts(backend: Backend) throws -> (Accounts, Account?) {
        guard let server else { throw LaunchError.noServer }
        guard let apiKey else { throw LaunchError.noAPIKey }
        var environment = SyncEnvironment.live(timeZone: .system)
        environment.process = LocalProcesses.current
        environment.isRunning = LocalProcesses.isRunning
        environment.progressPostsInFlight = progressPostsInFlight
        let accounts = Accounts(
            server: server.description, apiKey: apiKey, directory: directory, backend: backend,
            environment: environment)
        // The same account `Accounts.current()` finds, without reading its files a second time.
        let account = try current.flatMap { key in try session.map { try accounts.account(for: key, email: $0.email) } }
        return (accounts, account)
    }
}

private func nonEmpty(_ text: String?) -> String? {
    guard let text = text?.trimmingWhitespace(), !text.isEmpty else { return nil }
    return text
}

private func readKey(_ path: String, home: String?) throws -> String {
    guard let data = FileManager.default.contents(atPath: UserPath.expand(path, home: home)),
        let key = nonEmpty(String(decoding: data, as: UTF8.self))
    else { throw LaunchError.unreadableAPIKeyFile(path: path) }
    return key
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

extension ConfigFile {
    /// The config file at `url`, `nil` when there is none.
    static func load(from url: URL) throws -> ConfigFile? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        do {
            return try decode(data)
        } catch {
            throw LaunchError.badConfig(path: url.path, reason: String(describing: error))
        }
    }
}

/// Why the program cannot start; the description is what the user reads.
enum LaunchError: Error, CustomStringConvertible {
    case noServer
    case noAPIKey
    case unreadableAPIKeyFile(path: String)
    case badConfig(path: String, reason: String)
    case badInFlight(String)

    var description: String {
        switch self {
        case .noServer:
            tr(
                "No server is configured: pass --server https://…, set FITIQ_SERVER, or put \"server\" in $XDG_CONFIG_HOME/fitiq/config.json."
            )
        case .noAPIKey:
            tr("No API key: set FITIQ_API_KEY, pass --api-key-file PATH, or put \"apiKeyFile\" in the config file.")
        case .unreadableAPIKeyFile(let path):
            tr("The API key file {path} cannot be read or is empty.", ["path": path])
        case .badInFlight(let text):
            tr(
                "FITIQ_SYNC_IN_FLIGHT must be a whole number from 1 to {maximum} (history entries sent at once); it is \"{text}\".",
                ["maximum": String(ProgressWindow.maximumLimit), "text": text])
        case .badConfig(let path, let reason):
            tr(
                "The config file {path} is not valid JSON of the form {{\"server\": \"…\", \"apiKeyFile\": \"…\"}}: {reason}",
                ["path": path, "reason": reason])
        }
    }
}
