import FitIQCache
import FitIQCatalogs
import FitIQCore
import FitIQHTTP
import FitIQLocalization
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The wired application of one command: cache, logger, transport and use cases.
struct App: Sendable {
    let setup: LocalSetup
    let logger: Logger
    /// The use cases on the server, when a server and an API key are known.
    let accounts: Accounts?
    /// The account signed in on that server, if any (read once, at start).
    let account: Account?
    let transport: HTTPTransport?

    var paths: CachePaths { setup.paths }
    var directory: JSONFileAccountDirectory { setup.directory }
    var server: ServerAddress? { setup.server }

    /// The language of `settings` for the signed-in profile (its cached language), or of the environment
    /// alone when nobody is signed in.
    func localizer(_ settings: LanguageSettings) async -> Localizer {
        let profileLanguage = try? await account?.view().profile?.languageCode
        return Catalogs.embedded.localizer(settings, profile: profileLanguage ?? nil)
    }

    /// Closes network connections.
    func shutdown() async {
        await transport?.shutdown()
    }

    /// The use cases, or the reason there are none.
    func requireAccounts() throws -> Accounts {
        guard let accounts else { throw server == nil ? LaunchError.noServer : LaunchError.noAPIKey }
        return accounts
    }

    /// The account of this command, or exit 3 when nobody is signed in (64 when `--account` or
    /// `FITIQ_ACCOUNT` names an account this machine does not have).
    func requireAccount() throws -> Account {
        if let unknown = setup.unknownAccount { throw unknown }
        guard accounts != nil, let account else { throw SessionError.notSignedIn }
        return account
    }
}

/// Builds the application: the local setup (``LocalSetup``), a file logger, and the HTTP backend.
/// With `sending` (a command about to talk to the server), libcurl starts loading now, while the cache
/// is read, if `main` did not start it already: the load would otherwise come before the first request
/// (docs/benchmarks.md "bench-startup").
func makeApp(config: AppConfig, sending: Bool = false) async throws -> App {
    let setup = try await LocalSetup.resolve(config)
    let sink = FileLogHandler.Sink(url: setup.paths.logFile)
    let logger = Logger(label: "fitiq-tui", factory: { FileLogHandler(label: $0, sink: sink) })
    guard let server = setup.server, let apiKey = setup.apiKey else {
        return App(setup: setup, logger: logger, accounts: nil, account: nil, transport: nil)
    }
    let transport = HTTPTransport(server: server, apiKey: apiKey, logger: logger)
    if sending { transport.prepare() }
    let (accounts, account): (Accounts, Account?)
    do {
        (accounts, account) = try setup.accounts(backend: Backend(transport: transport))
    } catch {
        await transport.shutdown()
        throw error
    }
    return App(setup: setup, logger: logger, accounts: accounts, account: account, transport: transport)
}
