import Hummingbird

/// A failure answered as `{"error":{"message":…}}` with its status, as the production server does.
struct APIError: Error, Equatable, HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status: status, body: .object(["error": .object(["message": .string(message)])]))
    }

    static let invalidPayload = APIError(.badRequest, "Invalid request payload")
    static let invalidAuthentication = APIError(.unauthorized, "Invalid authentication")
    static let missingAuthentication = APIError(.unauthorized, "Authorization header is required")
    static let invalidAPIKey = APIError(.unauthorized, "Invalid or missing API key")
    static let profileNotFound = APIError(.notFound, "User profile not found")
    static let profileExists = APIError(.conflict, "User profile already exists")
    static let invalidCredentials = APIError(.unauthorized, "Invalid email or password")
    static let invalidRefreshToken = APIError(.unauthorized, "invalid refresh token")
    static let revokedRefreshToken = APIError(.unauthorized, "refresh token has been revoked")
    static let expiredRefreshToken = APIError(.unauthorized, "refresh token has expired")
    static let entryNotFound = APIError(.notFound, "Progress entry not found")
    static let entryForbidden = APIError(.forbidden, "You do not have permission to delete this progress entry")
    static let injectedFailure = APIError(.serviceUnavailable, "Service temporarily unavailable (injected failure)")
}
