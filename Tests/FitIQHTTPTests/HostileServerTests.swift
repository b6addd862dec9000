import FitIQCore
import FitIQLocalization
import FitIQTestSupport
import Foundation
import Hummingbird
import Logging
import Testing

@testable import FitIQHTTP

/// Answers a proxy or a broken server might give: each ends in a clear error, never a crash or a hang.
@Suite(.timeLimit(.minutes(3)))
struct HostileServerTests {
    /// Runs a server whose `GET /api/v1/users/me` answers with `respond`, and reads the profile from it.
    /// With `asProxy`, the server stands in `http_proxy` for a server elsewhere (the requests reach it in
    /// absolute form), as a proxy does.
    func fetchProfile(
        requestTimeout: Duration = .seconds(5), asProxy: Bool = false,
        _ respond: @escaping @Sendable () async throws -> Response
    ) async throws -> Result<RemoteProfile, RemoteError> {
        let router = Router()
        router.get("/api/v1/users/me") { _, _ in try await respond() }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "hostile", factory: { _ in SwiftLogNoOpLogHandler() }))
        let running = Task(executorPreference: OwnQueueExecutor()) { try await application.run() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let transport = HTTPTransport(
            server: try ServerAddress(
                asProxy ? "http://fitiq.example.com" : "http://127.0.0.1:\(port)", allowInsecureHTTP: asProxy),
            apiKey: "key", logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }),
            requestTimeout: requestTimeout, environment: asProxy ? ["http_proxy": "http://127.0.0.1:\(port)"] : [:])
        defer { Task { await transport.shutdown() } }
        do {
            return .success(try await HTTPProfileRemote(transport: transport).fetchProfile(accessToken: "token"))
        } catch {
            return .failure(error)
        }
    }

    static func body(_ text: String, status: HTTPResponse.Status = .ok, type: String = "application/json") -> Response {
        Response(
            status: status, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    @Test func aHugeBodyIsRefusedAtTheCap() async throws {
        let huge = "{\"data\":{\"name\":\"" + String(repeating: "x", count: 10 << 20) + "\"}}"
        let result = try await fetchProfile { Self.body(huge) }
        #expect(result == .failure(.invalidResponse(message: .answerTooLarge(kibibytes: 1024))))
    }

    @Test func anHTMLPageWithStatus200IsAClearError() async throws {
        let result = try await fetchProfile { Self.body("<!DOCTYPE html><html>Login</html>", type: "text/html") }
        guard case .failure(.invalidResponse(let message)) = result else {
            Issue.record("expected invalidResponse, got \(result)")
            return
        }
        guard case .unreadableAnswer(200, let reason) = message else {
            Issue.record("expected an unreadable answer, got \(message)")
            return
        }
        #expect(reason.contains("HTML page"))
    }

    @Test func aProxyErrorPageIsRetryableWithAReadableMessage() async throws {
        let result = try await fetchProfile {
            Self.body("<html><body>502 Bad Gateway</body></html>", status: .badGateway, type: "text/html")
        }
        #expect(
            result == .failure(.unavailable(status: 502, message: "HTTP 502 (an HTML page, probably from a proxy)")))
    }

    /// The same page from the proxy in the environment: the message names the proxy.
    @Test func aPageFromTheProxyInTheEnvironmentNamesTheProxy() async throws {
        let result = try await fetchProfile(asProxy: true) {
            Self.body("<html><body>502 Bad Gateway</body></html>", status: .badGateway, type: "text/html")
        }
        guard case .failure(.unavailable(502, let message)) = result else {
            Issue.record("expected unavailable 502, got \(result)")
            return
        }
        #expect(message.hasPrefix("the proxy http://127.0.0.1:"), "\(message)")
        #expect(message.hasSuffix(" answered HTTP 502 with a page of its own"), "\(message)")
        let denied = try await fetchProfile(asProxy: true) {
            Self.body("<html>Proxy auth</html>", status: .init(code: 407), type: "text/html")
        }
        guard case .failure(.rejected(407, let said)) = denied else {
            Issue.record("expected rejected 407, got \(denied)")
            return
        }
        #expect(said.contains("asks for a user name and password (HTTP 407)"), "\(said)")
    }

    @Test func wrongTypesAreUnreadableNotACrash() async throws {
        let result = try await fetchProfile { Self.body(#"{"data":{"name":["not","a","string"]}}"#) }
        guard case .failure(let error) = result else { Issue.record("expected a failure"); return }
        #expect(error.isRetryable)
        #expect(error.message.contains("could not be read"))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        // The handler waits for something that never comes, until the server stops and cancels it (or
        // the test ends); then it gives up without an answer, as a cancelled handler does.
        let (never, letGo) = AsyncStream.makeStream(of: Void.self)
        defer { letGo.finish() }
        let started = ContinuousClock.now
        let result = try await fetchProfile(requestTimeout: .seconds(1)) { () async throws -> Response in
            for await _ in never {}
            throw CancellationError()
        }
        guard case .failure(.unreachable(let message)) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        guard case .timedOut = message else {
            Issue.record("expected a timeout, got \(message)")
            return
        }
        // A hang guard, not a speed check: the answer that never comes was not awaited (a one-second
        // timeout; a loaded machine has taken 21 s to get there).
        #expect(ContinuousClock.now - started < .seconds(90))
    }
}
