import Hummingbird
import Logging

/// The per-request context: the router's storage, the signed-in account and a way to drop the connection.
struct DevRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The account whose access token the request carried, set by `BearerAuthMiddleware`.
    var user: UserRecord?
    /// Closes the request's connection without writing anything (the `--drop-rate` fault).
    let closeConnection: @Sendable () async -> Void

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.user = nil
        let channel = source.channel
        self.closeConnection = { try? await channel.close() }
    }

    /// The signed-in account; only routes behind `BearerAuthMiddleware` call this.
    func requireUser() throws(APIError) -> UserRecord {
        guard let user else { throw .invalidAuthentication }
        return user
    }
}
