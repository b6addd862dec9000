import FitIQTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import FitIQDevServer
@testable import FitIQHTTP

/// Shared settings and builders for the development server's tests.
enum TestSupport {
    static let apiKey = TestDevServer.apiKey
    static let jwtSecret = TestDevServer.jwtSecret
    /// 2026-03-10T12:00:00Z: a fixed "now" so ages and windows do not depend on the day the tests run.
    static let fixedNow = Date(timeIntervalSince1970: 1_773_144_000)

    /// The test configuration (test secrets, port 0, the cheapest bcrypt cost) with `storage`.
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
        var configuration = TestDevServer.configuration(
            accessTokenTTL: accessTokenTTL, shape: shape, registerCreatesProfile: registerCreatesProfile,
            latencyMilliseconds: latencyMilliseconds, failRate: failRate, dropRate: dropRate,
            demoPassword: demoPassword)
        configuration.storage = storage
        return configuration
    }

    /// A settable clock at ``fixedNow`` that records the server's sleeps instead of waiting.
    static func clock() -> ManualClock { ManualClock(start: fixedNow) }

    /// Runs the server on a free loopback port (``TestDevServer``) and `body` against it over HTTP, through
    /// the client's own libcurl session.
    static func withServer<Value: Sendable>(
        _ configuration: DevServerConfiguration = configuration(),
        clock: ManualClock = clock(),
        _ body: @Sendable (API) async throws -> Value
    ) async throws -> Value {
        try await TestDevServer.with(configuration, clock: clock) { server in
            try await body(API(server: server, session: CurlSession(maximumBodyBytes: 16 << 20)))
        }
    }

    /// A fresh temporary folder, removed when `body` returns.
    static func withTemporaryDirectory<Value>(_ body: (URL) async throws -> Value) async throws -> Value {
        try await TemporaryFolder.with("fitiq-dev-server", body)
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
    let server: TestDevServer
    let session: CurlSession

    /// The port the server bound.
    var port: Int { server.port }

    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: String? = nil,
        apiKey: String? = TestSupport.apiKey
    ) async throws -> Reply {
        var headers: [String] = []
        if let apiKey { headers.append("X-API-Key: \(apiKey)") }
        if let token { headers.append("Authorization: Bearer \(token)") }
        if body != nil { headers.append("Content-Type: application/json") }
        let answer = try await session.perform(
            CurlRequest(
                url: server.url + path, method: method.rawValue, headers: headers, body: body.map { Data($0.utf8) },
                timeoutMilliseconds: 60_000, caFile: nil, caPath: nil, proxy: "", noProxy: nil))
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            fields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value))
        }
        return Reply(
            status: HTTPResponse.Status(code: answer.status), text: String(decoding: answer.body, as: UTF8.self),
            headers: fields)
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
