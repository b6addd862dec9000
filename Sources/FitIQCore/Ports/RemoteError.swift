import FitIQLocalization

/// A failed call to the backend, in the classes the sync rules act on.
public enum RemoteError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The server could not be reached or did not answer in time.
    case unreachable(message: String)
    /// The server answered 429 or 5xx: try again later.
    case unavailable(status: Int, message: String)
    /// The answer could not be read (an HTML page from a proxy, garbage, too large).
    case invalidResponse(message: String)
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
        case .unreachable, .unavailable, .invalidResponse: true
        default: false
        }
    }

    /// The message to show (the server's own where it sent one).
    public var message: String {
        switch self {
        case .unreachable(let message), .unavailable(_, let message), .invalidResponse(let message),
            .unauthorized(let message), .notFound(let message), .conflict(let message), .rejected(_, let message):
            message
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let message): tr("The server could not be reached: {message}", ["message": message])
        case .unavailable(let status, let message):
            tr("The server is unavailable (HTTP {status}): {message}", ["status": String(status), "message": message])
        case .invalidResponse(let message): tr("The server's answer could not be read: {message}", ["message": message])
        case .unauthorized(let message): tr("The server refused the credentials: {message}", ["message": message])
        case .notFound(let message), .conflict(let message), .rejected(_, let message):
            tr("The server said: {message}", ["message": message])
        }
    }
}
