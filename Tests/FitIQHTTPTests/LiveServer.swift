import FitIQCache
import FitIQDevServer
import FitIQHTTP
import FitIQTestSupport
import Foundation
import Logging

@testable import FitIQCore

/// The development server running in-process on a free loopback port (``TestDevServer``), and a client
/// wired to it with a real cache in a temporary folder. The server and the client share one manual
/// clock, so token expiry needs no sleeping, and the client's sleeps (retries, backoffs) skip ahead on it.
struct LiveServer: Sendable {
    static let apiKey = TestDevServer.apiKey
    let baseURL: String
    let now: ManualClock
    let folder: URL
    let transport: HTTPTransport
    /// Stops the server before the test ends (it is stopped afterwards anyway).
    var stop: @Sendable () async -> Void = {}

    /// Runs `body` against a fresh server; everything is stopped and removed afterwards. The server's
    /// sleeps (its latency) go to `sleep`: by default recorded and skipped.
    static func with<T: Sendable>(
        shape: DevServerConfiguration.ResponseShape = .real, registerCreatesProfile: Bool = false,
        accessTokenTTL: Int = 3600, failRate: Double = 0, dropRate: Double = 0, latencyMilliseconds: Int = 0,
        sleep: (@Sendable (Duration) async throws -> Void)? = nil,
        _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        let configuration = TestDevServer.configuration(
            accessTokenTTL: accessTokenTTL, shape: shape, registerCreatesProfile: registerCreatesProfile,
            latencyMilliseconds: latencyMilliseconds, failRate: failRate, dropRate: dropRate)
        let clock = ManualClock(start: Date(), sleeps: .skipAhead)
        return try await TestDevServer.with(configuration, clock: clock, sleep: sleep) { running in
            let folder = running.folder.appendingPathComponent("client")
            var client = try LiveServer.client(port: running.port, now: running.clock, folder: folder)
            client.stop = { await running.stop() }
            let server = client
            do {
                let result = try await body(server)
                await server.transport.shutdown()
                return result
            } catch {
                await server.transport.shutdown()
                throw error
            }
        }
    }

    /// A client for a server on `port`. Its request timeout only guards against hangs: the tests run in
    /// parallel, and under a sanitizer one answer can take seconds.
    static func client(port: Int, now: ManualClock, folder: URL) throws -> LiveServer {
        let transport = HTTPTransport(
            server: try ServerAddress("http://127.0.0.1:\(port)"), apiKey: apiKey,
            logger: Logger(label: "test-http", factory: { _ in SwiftLogNoOpLogHandler() }),
            requestTimeout: .seconds(60))
        return LiveServer(baseURL: "http://127.0.0.1:\(port)", now: now, folder: folder, transport: transport)
    }

    /// Use cases on this server with a real JSON cache under the temporary folder.
    func accounts(folder name: String = "client", progressPostsInFlight: Int = ProgressWindow.defaultLimit) -> Accounts
    {
        let directory = JSONFileAccountDirectory(paths: CachePaths(root: folder.appendingPathComponent(name)))
        var environment = SyncEnvironment(clock: now, random: { 0.5 }, timeZone: .utc)
        environment.progressPostsInFlight = progressPostsInFlight
        return Accounts(
            server: baseURL, apiKey: Self.apiKey, directory: directory, backend: Backend(transport: transport),
            environment: environment)
    }

    /// Registers a fresh user.
    func register(_ accounts: Accounts, email: String = "jane.\(UUID().uuidString.prefix(8))@example.com")
        async throws -> Account
    {
        let signedIn = try await accounts.register(
            email: email, password: "correct horse battery", name: "Jane Doe", dateOfBirth: "1983-07-20")
        if let error = signedIn.profileError { throw error }
        return signedIn.account
    }

    /// Every height entry on the server, read directly through the adapter.
    func serverHeights(_ account: Account) async throws -> [RemoteProgressEntry] {
        let remote = HTTPProgressRemote(transport: transport)
        var entries: [RemoteProgressEntry] = []
        while true {
            let offset = entries.count
            let page = try await account.session.authorized { token throws(RemoteError) in
                try await remote.list(
                    ProgressQuery(
                        type: "height", from: CalendarDate(year: 1900, month: 1, day: 1),
                        to: CalendarDate(year: 2200, month: 1, day: 1), limit: 100, offset: offset),
                    accessToken: token)
            }
            entries += page.entries
            if page.entries.isEmpty || entries.count >= page.total { return entries }
        }
    }

    /// The server's profile, read directly through the adapter.
    func serverProfile(_ account: Account) async throws -> RemoteProfile {
        let remote = HTTPProfileRemote(transport: transport)
        return try await account.session.authorized { token throws(RemoteError) in
            try await remote.fetchProfile(accessToken: token)
        }
    }
}
