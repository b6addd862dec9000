/// A failed call to the backend, in the classes the sync rules act on.
public enum RemoteError: Error, Equatable, Sendable, Codable {
    /// The server could not be reached or did not answer in time; why is kept as data, so a reason kept
    /// in the outbox is said in the language of the moment it is shown.
    case unreachable(message: TransportFailure)
    /// There is no way to the server now: the connection was refused, its name does not resolve, or
    /// the network is unreachable. A fact about the network, not a glitch: a command that saved locally
    /// does not wait to try again (``SyncEngine/drain(until:checkFirst:whenOffline:)``).
    case offline(message: TransportFailure)
    /// The server answered 429 or 5xx: try again later.
    case unavailable(status: Int, message: String)
    /// The answer could not be read (an HTML page from a proxy, garbage, too large).
    case invalidResponse(message: TransportFailure)
    /// 401: the credentials were refused.
    case unauthorized(message: String)
    /// 404: the resource does not exist (for profile calls: no profile yet).
    case notFound(message: String)
    /// 409: the resource exists already.
    case conflict(message: String)
    /// Another 4xx: the server refused the request; `message` is the server's.
    case rejected(status: Int, message: String)
    /// 401 again and again: other requests or processes kept rotating the session's tokens under a
    /// call. Nothing says the session is over: try again later.
    case tokensKeptChanging

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .offline, .unavailable, .invalidResponse, .tokensKeptChanging: true
        default: false
        }
    }

    /// The server's own message, when the server answered (never for a failure on the way).
    public var serverMessage: String? {
        switch self {
        case .unreachable, .offline, .invalidResponse, .tokensKeptChanging: nil
        case .unavailable(_, let message), .unauthorized(let message), .notFound(let message),
            .conflict(let message), .rejected(_, let message):
            message
        }
    }

    /// Whether there is no way to the server now (``offline(message:)``).
    public var isOffline: Bool {
        if case .offline = self { true } else { false }
    }
}

/// Why a request got no usable answer, as the transport found it. libcurl's own text (`reason`) is
/// kept as it came: it names the host or the system error, never the request's headers.
public enum TransportFailure: Sendable, Hashable, Codable {
    /// The answer was larger than `kibibytes` KiB.
    case answerTooLarge(kibibytes: Int)
    /// The request was cancelled.
    case cancelled
    /// The proxy asks for a user name and password (HTTP 407).
    case proxyWantsCredentials(proxy: String)
    /// The proxy refused to reach the server (its CONNECT answered `status`).
    case proxyRefused(proxy: String, status: Int)
    /// The proxy's name does not resolve; `nil` when the environment's setting could not be read back.
    case proxyNotFound(proxy: String?)
    /// The proxy cannot be reached.
    case proxyUnreachable(proxy: String, reason: String)
    /// The server refused the connection.
    case connectionRefused
    /// No answer in time.
    case timedOut(reason: String)
    /// No answer within `seconds` (a wait of fitiq-tui's own).
    case noAnswerWithin(seconds: Int)
    /// TLS verification failed.
    case tls(reason: String)
    /// Something else went wrong on the way through the proxy.
    case throughProxy(proxy: String, reason: String)
    /// A 2xx answer whose body could not be read.
    case unreadableAnswer(status: Int, reason: String)
    /// Anything else, in libcurl's words.
    case other(String)
}
