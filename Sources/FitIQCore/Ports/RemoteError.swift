import FitIQLocalization

/// A failed call to the backend, in the classes the sync rules act on.
public enum RemoteError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The server could not be reached or did not answer in time; why, said in the language of the moment
    /// it is shown (a reason kept in the outbox is said again in a language chosen later).
    case unreachable(message: Phrase)
    /// There is no way to the server now: the connection was refused, its name does not resolve, or
    /// the network is unreachable. A fact about the network, not a glitch: a command that saved locally
    /// does not wait to try again (``SyncEngine/drain(until:checkFirst:whenOffline:)``).
    case offline(message: Phrase)
    /// The server answered 429 or 5xx: try again later.
    case unavailable(status: Int, message: String)
    /// The answer could not be read (an HTML page from a proxy, garbage, too large).
    case invalidResponse(message: Phrase)
    /// 401: the credentials were refused.
    case unauthorized(message: String)
    /// 404: the resource does not exist (for profile calls: no profile yet).
    case notFound(message: String)
    /// 409: the resource exists already.
    case conflict(message: String)
    /// Another 4xx: the server refused the request; `message` is the server's.
    case rejected(status: Int, message: String)

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .offline, .unavailable, .invalidResponse: true
        default: false
        }
    }

    /// Whether there is no way to the server now (``offline(message:)``).
    public var isOffline: Bool {
        if case .offline = self { true } else { false }
    }

    /// The message to show (the server's own where it sent one).
    public var message: String {
        switch self {
        case .unreachable(let reason), .offline(let reason), .invalidResponse(let reason):
            reason.text
        case .unavailable(_, let message), .unauthorized(let message), .notFound(let message),
            .conflict(let message), .rejected(_, let message):
            message
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let reason), .offline(let reason):
            tr("The server could not be reached: {message}", ["message": reason.text])
        case .unavailable(let status, let message):
            tr("The server is unavailable (HTTP {status}): {message}", ["status": String(status), "message": message])
        case .invalidResponse(let reason):
            tr("The server's answer could not be read: {message}", ["message": reason.text])
        case .unauthorized(let message): tr("The server refused the credentials: {message}", ["message": message])
        case .notFound(let message), .conflict(let message), .rejected(_, let message):
            tr("The server said: {message}", ["message": message])
        }
    }
}
