import Foundation
import Hummingbird

/// Requires `Authorization: Bearer <access token>` and puts the token's account into the context.
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = DevRequestContext

    let issuer: TokenIssuer
    let store: DevStore
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let header = request.headers[.authorization] else { throw APIError.missingAuthentication }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.invalidAuthentication }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard let claims = await issuer.verify(token, now: now()) else { throw APIError.invalidAuthentication }
        // A token outlives an erased account; treat it as invalid rather than answering for a ghost.
        guard let user = try await store.user(id: claims.sub) else { throw APIError.invalidAuthentication }
        var context = context
        context.user = user
        return try await next(request, context)
    }
}
