import CCurl
import FitIQCore
import FitIQLocalization
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// The methods the FitIQ contract uses.
public enum HTTPMethod: String, Sendable {
    case GET, POST, PUT, PATCH, DELETE
}

/// Sends requests to one FitIQ server over libcurl: API key on every call, bearer where asked,
/// explicit timeouts, bounded bodies, and failures mapped to ``RemoteError``. Proxies come from the
/// environment as every Linux tool reads them (`http_proxy`, `https_proxy`, `all_proxy`, `no_proxy`);
/// certificates are always verified, against the system's store or `SSL_CERT_FILE`/`SSL_CERT_DIR`.
public final class HTTPTransport: Sendable {
    /// Larger answers are refused: no profile call answers more than a few KB.
    public static let maximumBodyBytes = 1 << 20

    let server: ServerAddress
    let apiKey: String
    let logger: Logger
    let requestTimeout: Duration
    /// The proxies and CA files of the environment the transport was made in.
    let environment: [String: String]
    private let session = CurlSession(maximumBodyBytes: maximumBodyBytes)

    /// A transport for `server`; `environment` is the process's (proxies, CA files).
    public init(
        server: ServerAddress, apiKey: String, logger: Logger, requestTimeout: Duration = .seconds(10),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.server = server
        self.apiKey = apiKey
        self.logger = logger
        self.requestTimeout = requestTimeout
        self.environment = environment
    }

    /// Waits for a load of libcurl under way (``prepare()``), so the process may exit. Connections are
    /// kept while the transport lives, and closed with it.
    public func shutdown() async {
        await session.settle()
    }

    /// Starts loading libcurl in the background, for a caller about to send: the first request
    /// awaits the load instead of making it. The task returned ends with the load.
    @discardableResult
    public func prepare() -> Task<Void, Never> {
        session.prepare()
    }

    /// Starts loading libcurl for the whole process, before any transport is made: for a program
    /// that knows early that it will send. Every transport's first request joins that load. The
    /// process calls ``settleLibrary()`` before it exits.
    public static func preloadLibrary() {
        LibCurl.preload()
    }

    /// Waits for ``preloadLibrary()``'s load to end, so the process may exit.
    public static func settleLibrary() async {
        await LibCurl.settle()
    }

    /// Whether libcurl is loaded for this transport's requests.
    var isOpen: Bool { session.isOpen }

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
        guard let url = components?.url else { throw .invalidResponse(message: .other("bad request path \(path)")) }
        // A header line must not break: a stored value that would is never sent (nor quoted).
        guard Self.canSend(apiKey) else { throw .rejected(status: 0, message: "the API key cannot be sent") }
        if let bearer, !Self.canSend(bearer) {
            throw .unauthorized(message: "the stored access token cannot be sent")
        }
        var headers = ["X-API-Key: \(apiKey)", "Accept: application/json"]
        if let bearer { headers.append("Authorization: Bearer \(bearer)") }
        if body != nil { headers.append("Content-Type: application/json") }
        let parts = requestTimeout.components
        let request = CurlRequest(
            url: url.absoluteString, method: method.rawValue, headers: headers, body: body,
            timeoutMilliseconds: Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000),
            caFile: environment["SSL_CERT_FILE"] ?? environment["CURL_CA_BUNDLE"], caPath: environment["SSL_CERT_DIR"],
            proxy: ProxyEnvironment(environment).configured(for: url) ?? "",
            noProxy: environment["no_proxy"] ?? environment["NO_PROXY"])
        let started = ContinuousClock.now
        let answer: Answer
        do {
            let received = try await session.perform(request)
            answer = Answer(status: received.status, body: received.body, contentType: received.contentType)
        } catch {
            let mapped = map(error, url: url)
            logger.info("\(method.rawValue) \(path) failed: \(String(describing: mapped))")
            throw mapped
        }
        let elapsed = ContinuousClock.now - started
        // Only method, path, status and time are logged: never headers or bodies (they hold secrets).
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        logger.info("\(method.rawValue) \(path) → \(answer.status) in \(milliseconds) ms")
        guard (200..<300).contains(answer.status) else {
            let failure = Self.classify(status: answer.status, body: answer.body, contentType: answer.contentType)
            // Through a proxy, its own pages (a 407, an HTML 5xx) are named as the proxy's.
            if let proxy = ProxyEnvironment(environment).proxy(for: url),
                answer.status == 407 || WireResponses.isHTML(answer.body, contentType: answer.contentType)
            {
                let said =
                    answer.status == 407
                    ? tr("the proxy {proxy} asks for a user name and password (HTTP 407)", ["proxy": proxy])
                    : tr(
                        "the proxy {proxy} answered HTTP {status} with a page of its own",
                        ["proxy": proxy, "status": String(answer.status)])
                try Self.rethrow(failure, message: said)
            }
            throw failure
        }
        return answer
    }

    /// `failure` of the same class, saying `message` instead.
    static func rethrow(_ failure: RemoteError, message: String) throws(RemoteError) -> Never {
        switch failure {
        case .unauthorized: throw .unauthorized(message: message)
        case .notFound: throw .notFound(message: message)
        case .conflict: throw .conflict(message: message)
        case .unavailable(let status, _): throw .unavailable(status: status, message: message)
        case .rejected(let status, _): throw .rejected(status: status, message: message)
        default: throw failure
        }
    }

    /// Whether `value` can stand in a header line: visible ASCII and spaces, nothing that ends a line.
    static func canSend(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || (0x21...0x7E).contains($0) }
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

    /// Maps a transfer that gave no answer (refused, timed out, too large, TLS, a proxy's refusal) to
    /// the core's error classes, naming the proxy when one was in the way. libcurl's own text never
    /// holds the request's headers.
    func map(_ failure: CurlFailure, url: URL) -> RemoteError {
        let proxy = ProxyEnvironment(environment).proxy(for: url)
        switch failure {
        case .tooLarge:
            return .invalidResponse(message: .answerTooLarge(kibibytes: Self.maximumBodyBytes / 1024))
        case .cancelled:
            return .unreachable(message: .cancelled)
        case .transfer(let code, let systemError, let text, let connectStatus):
            if let proxy, connectStatus >= 300 {
                return .unreachable(
                    message: connectStatus == 407
                        ? .proxyWantsCredentials(proxy: proxy) : .proxyRefused(proxy: proxy, status: connectStatus))
            }
            switch code {
            case Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue):
                return .offline(message: .proxyNotFound(proxy: proxy))
            case Int(CURLE_COULDNT_CONNECT.rawValue) where proxy != nil:
                return .offline(message: .proxyUnreachable(proxy: proxy ?? "", reason: text))
            // Refused, no route, an unknown name: no attempt now can succeed, so none waits for another.
            case Int(CURLE_COULDNT_CONNECT.rawValue) where systemError == Int(ECONNREFUSED):
                return .offline(message: .connectionRefused)
            case Int(CURLE_COULDNT_CONNECT.rawValue):
                return .offline(message: .other(text))
            case Int(CURLE_COULDNT_RESOLVE_HOST.rawValue):
                return .offline(message: .other(text))
            case Int(CURLE_OPERATION_TIMEDOUT.rawValue):
                return .unreachable(message: .timedOut(reason: text))
            case Int(CURLE_PEER_FAILED_VERIFICATION.rawValue), Int(CURLE_SSL_CONNECT_ERROR.rawValue),
                Int(CURLE_SSL_CERTPROBLEM.rawValue), Int(CURLE_SSL_CIPHER.rawValue),
                Int(CURLE_SSL_CACERT_BADFILE.rawValue):
                // TLS failures stay visible as such: never retried into a silent success.
                return .unreachable(message: .tls(reason: text))
            default:
                // Whatever else went wrong on the way through a proxy is said with its name.
                return .unreachable(message: proxy.map { .throughProxy(proxy: $0, reason: text) } ?? .other(text))
            }
        }
    }

    /// Reads a 2xx body, turning an unreadable one into ``RemoteError/invalidResponse(message:)``.
    func read<T>(_ answer: Answer, _ reader: (Data) throws(WireResponses.Unreadable) -> T) throws(RemoteError) -> T {
        do {
            return try reader(answer.body)
        } catch {
            throw .invalidResponse(message: .unreadableAnswer(status: answer.status, reason: error.reason))
        }
    }
}

/// The proxy libcurl takes for a URL from the environment, as curl reads it: `http_proxy` for
/// http (lower case only), `https_proxy` or `HTTPS_PROXY` for https, else `all_proxy`/`ALL_PROXY`;
/// none for a host `no_proxy`/`NO_PROXY` lists (`*` for all, a name for it and its subdomains). Used
/// to name the proxy in messages, without its user name and password.
struct ProxyEnvironment {
    let environment: [String: String]

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    /// The proxy set for `url`'s scheme, as written (credentials included), whatever `no_proxy` says:
    /// what libcurl is given, with `no_proxy` beside it.
    func configured(for url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? "http"
        let names =
            scheme == "https"
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        return names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    /// The proxy `url` goes through, for messages: without credentials, `nil` when none is set or
    /// `no_proxy` lists the host.
    func proxy(for url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? "http"
        let names =
            scheme == "https"
            ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] : ["http_proxy", "all_proxy", "ALL_PROXY"]
        guard let value = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        let host = (url.host ?? "").lowercased()
        let skip = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",").map {
            String($0).trimmingWhitespace().lowercased()
        }
        for entry in skip where !entry.isEmpty {
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if name == "*" || host == name || host.hasSuffix("." + name) { return nil }
        }
        // Without credentials: `http://user:secret@proxy:3128` is named `http://proxy:3128`.
        guard let at = value.lastIndex(of: "@") else { return TextSanitizer.sanitize(value) }
        let schemeEnd = value.firstRange(of: "://")?.upperBound ?? value.startIndex
        return TextSanitizer.sanitize(String(value[..<schemeEnd]) + String(value[value.index(after: at)...]))
    }
}
