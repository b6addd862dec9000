import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import FitIQDevServer

/// Shared settings and builders for the development server's tests.
enum TestSupport {
    static let apiKey = "test-api-key"
    static let jwtSecret = "test-jwt-secret-that-is-long-enough-for-hs256"
    /// 2026-03-10T12:00:00Z: a fixed "now" so ages and windows do not depend on the day the tests run.
    static let fixedNow = Date(timeIntervalSince1970: 1_773_144_000)

    /// A configuration with test secrets, in-memory storage and the cheapest bcrypt cost.
    static func configuration(
        shape: DevServerConfiguration.ResponseShape = .real,
        registerCreatesProfile: Bool = false,
        storage: DevServerConfiguration.Storage = .inMemory,
        accessTokenTTL: Int = 3600,
        failRate: Double = 0,
        dropRate: Double = 0,
        latencyMilliseconds: Int = 0,
        demoPassword: String? = nil
    ) -> DevServerConfiguration {
        DevServerConfiguration(
            host: "127.0.0.1", port: 0, storage: storage, apiKey: apiKey, jwtSecret: jwtSecret,
            accessTokenTTL: accessTokenTTL, responseShape: shape, registerCreatesProfile: registerCreatesProfile,
            latencyMilliseconds: latencyMilliseconds, failRate: failRate, dropRate: dropRate, faultSeed: 42,
            bcryptCost: 4, demoAccount: demoPassword.map { DevServerConfiguration.DemoAccount(password: $0) }
        )
    }

    /// Builds the application and runs `body` against it with the given testing setup.
    static func withServer<Value: Sendable>(
        _ configuration: DevServerConfiguration = configuration(),
        setup: TestingSetup = .router,
        clock: TestClock = TestClock(),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in },
        _ body: @Sendable (API) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "fitiq-dev-server-tests")
        logger.logLevel = .critical
        let app = try await DevServer.makeApplication(
            configuration: configuration, dependencies: clock.dependencies, logger: logger, onListening: onListening)
        return try await app.test(setup) { client in try await body(API(client: client)) }
    }

    /// A fresh temporary folder, removed when `body` returns.
    static func withTemporaryDirectory<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fitiq-dev-server-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }
}

/// A settable clock: tests move time forward instead of sleeping, and see every requested sleep.
final class TestClock: Sendable {
    private let state: Mutex<(now: Date, sleeps: [Duration])>

    init(now: Date = TestSupport.fixedNow) {
        self.state = Mutex((now, []))
    }

    var now: Date { state.withLock { $0.now } }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func advance(by seconds: TimeInterval) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
    }

    var dependencies: DevServerDependencies {
        DevServerDependencies(
            now: { self.now },
            sleep: { duration in self.state.withLock { $0.sleeps.append(duration) } }
        )
    }
}

/// A decoded answer: status, raw text and the JSON object when there is one.
struct Reply {
    let status: HTTPResponse.Status
    let text: String
    let headers: HTTPFields

    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// The `data` object of a success envelope (empty when absent).
    var data: [String: Any] { json?["data"] as? [String: Any] ?? [:] }

    /// `error.message` of a failure envelope.
    var errorMessage: String? { (json?["error"] as? [String: Any])?["message"] as? String }
}

/// A thin client that adds the API key and bearer token the way the real clients do.
struct API: Sendable {
    let client: any TestClientProtocol

    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: String? = nil,
        apiKey: String? = TestSupport.apiKey
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        if let apiKey { headers[try #require(.init("X-API-Key"))] = apiKey }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.executeRequest(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return Reply(status: response.status, text: String(buffer: response.body), headers: response.headers)
    }

    /// Registers an account and returns its id and token pair.
    func register(
        email: String = "ana@example.com", password: String = "correct horse", name: String = "Ana Lima",
        dateOfBirth: String = "1983-07-19"
    ) async throws -> Account {
        let reply = try await send(
            .post, "/api/v1/auth/register",
            body:
                #"{"email":"\#(email)","password":"\#(password)","name":"\#(name)","date_of_birth":"\#(dateOfBirth)"}"#)
        #expect(reply.status == .created, "\(reply.text)")
        return Account(
            userID: reply.data["user_id"] as? String ?? "", accessToken: reply.data["access_token"] as? String ?? "",
            refreshToken: reply.data["refresh_token"] as? String ?? "")
    }

    /// Creates the profile with the two required fields.
    func createProfile(_ account: Account, name: String = "Ana Lima", units: String = "metric") async throws -> Reply {
        try await send(
            .post, "/api/v1/users/me", token: account.accessToken,
            body: #"{"name":"\#(name)","preferred_unit_system":"\#(units)"}"#)
    }
}

/// An account's identity and tokens as registration returned them.
struct Account: Sendable {
    let userID: String
    let accessToken: String
    let refreshToken: String
}
