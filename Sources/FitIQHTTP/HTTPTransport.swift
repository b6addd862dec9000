import AsyncHTTPClient
import FitIQCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

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

/// Sends requests to one FitIQ server: API key on every call, bearer where asked, explicit timeouts,
/// bounded bodies, and failures mapped to ``RemoteError``.
public final class HTTPTransport: Sendable {
    /// Connect 5 s; the whole request 10 s unless told otherwise (docs/design.md "Timeouts").
    static let connectTimeout = TimeAmount.seconds(5)
    /// Larger answers are refused: no profile call answers more than a few KB.
    public static let maximumBodyBytes = 1 << 20

    let server: ServerAddress
    let apiKey: String
    let configuration: HTTPClient.Configuration
    /// Made on the first request: starting its event loop costs time that the editor's first frame must
    /// not wait for.
    private let lazyClient = Mutex<HTTPClient?>(nil)
    let logger: Logger
    let requestTimeout: TimeAmount

    /// A transport with its own HTTP client; call ``shutdown()`` when done.
    public init(server: ServerAddress, apiKey: String, logger: Logger, requestTimeout: Duration = .seconds(10)) {
        self.server = server
        self.apiKey = apiKey
        self.logger = logger
        let parts = requestTimeout.components
        self.requestTimeout = .nanoseconds(parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000)
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: Self.connectTimeout, read: self.requestTimeout))
        // TLS certificates are verified (the client's default); there is no switch to turn that off.
        configuration.redirectConfiguration = .disallow
        // The outbox retries with its own backoff; a refused connection must fail at once, not after 5 s.
        configuration.connectionPool.retryConnectionEstablishment = false
        self.configuration = configuration
    }

    var client: HTTPClient {
        lazyClient.withLock { client in
            if let client { return client }
            let made = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            client = made
            return made
        }
    }

    /// A request made after ``shutdown()`` (a sync still running as the program ends) opened a client
    /// that nobody closes: it is closed here. `HTTPClient` keeps itself alive until that completes.
    deinit {
        if let client = lazyClient.withLock({ $0.take() }) {
            _ = client.shutdown()
        }
    }

    /// Closes the client's connections (a later request opens new ones).
    public func shutdown() async {
        let client = lazyClient.withLock { client in
            defer { client = nil }
            return client
        }
        try? await client?.shutdown()
    }

    /// An answer: status, body and content type.
    struct Answer {
        let status: Int
        let body: Data
        let contentType: String?
    }

    /// Sends one request; a 2xx answer is returned, any other status is thrown as a ``RemoteError``.
    func send(
        _ method: HTTPMethod, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, bearer: String? = nil
    ) async throws(RemoteError) -> Answer {
        var components = URLComponents(url: server.url.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        guard let url = components?.url else { throw .invalidResponse(message: "bad request path \(path)") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = method
        request.headers.add(name: "X-API-Key", value: apiKey)
        request.headers.add(name: "Accept", value: "application/json")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let started = ContinuousClock.now
        let answer: Answer
        do {
            let response = try await client.execute(request, timeout: requestTimeout, logger: nil)
            let bytes = try await response.body.collect(upTo: Self.maximumBodyBytes)
            answer = Answer(
                status: Int(response.status.code), body: Data(bytes.readableBytesView),
                contentType: response.headers.first(name: "Content-Type"))
        } catch {
            let mapped = Self.map(error)
            logger.info("\(method.rawValue) \(path) failed: \(mapped.message)")
            throw mapped
        }
        let elapsed = ContinuousClock.now - started
        // Only method, path, status and time are logged: never headers or bodies (they hold secrets).
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        logger.info("\(method.rawValue) \(path) → \(answer.status) in \(milliseconds) ms")
        guard (200..<300).contains(answer.status) else {
            throw Self.classify(status: answer.status, body: answer.body, contentType: answer.contentType)
        }
        return answer
    }

    /// Maps a non-2xx answer to the core's error classes.
    static func classify(status: Int, body: Data, contentType: String?) -> RemoteError {
        let message = WireResponses.errorMessage(body, status: status, contentType: contentType)
        switch status {
        case 401: return .unauthorized(message: message)
        case 404: return .notFound(message: message)
        case 409: return .conflict(message: message)
        case 408, 429, 500...599: return .unavailable(status: status, message: message)
        default: return .rejected(status: status, message: message)
        }
    }

    /// Maps transport failures (refused, timed out, too large, TLS) to the core's error classes, by
    /// their types: the errors of AsyncHTTPClient, SwiftNIO and NIOSSL.
    static func map(_ error: any Error) -> RemoteError {
        switch error {
        case is NIOTooManyBytesError:
            return .invalidResponse(message: "the answer is larger than \(maximumBodyBytes / 1024) KiB")
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .readTimeout, .deadlineExceeded:
                return .unreachable(message: "no answer in time (\(error))")
            case .remoteConnectionClosed:
                return .unreachable(message: "the connection closed before the answer")
            default:
                // The case alone: a description may quote the request's headers, a token among them.
                let name = String(String(describing: error).prefix { $0 != "(" })
                if name.hasSuffix(".invalidHeaderFieldValues") {
                    // The stored access token cannot be sent (a file garbled it): a refresh replaces it.
                    return .unauthorized(message: "the stored access token cannot be sent")
                }
                return .unreachable(message: name)
            }
        case is CancellationError:
            return .unreachable(message: "cancelled")
        case let error as IOError where error.errnoCode == ECONNREFUSED:
            return refused
        case let error as NIOConnectionError
        where error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }:
            return refused
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            // TLS failures stay visible as such: never retried into a silent success.
            return .unreachable(message: "TLS verification failed: \(error)")
        default:
            return .unreachable(message: String(describing: error))
        }
    }

    private static let refused = RemoteError.unreachable(message: "connection refused (is the server running?)")

    /// Reads a 2xx body, turning an unreadable one into ``RemoteError/invalidResponse(message:)``.
    func read<T>(_ answer: Answer, _ reader: (Data) throws(WireResponses.Unreadable) -> T) throws(RemoteError) -> T {
        do {
            return try reader(answer.body)
        } catch {
            throw .invalidResponse(message: "HTTP \(answer.status) answer could not be read: \(error.reason)")
        }
    }
}
