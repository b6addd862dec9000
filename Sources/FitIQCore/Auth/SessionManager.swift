import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Hands out valid access tokens for one account and shares one token refresh between concurrent 401s.
public actor SessionManager {
    private let store: any SessionStore
    private let auth: any AuthRemote
    private let now: @Sendable () -> Date
    private var refreshing: Task<Renewal, any Error>?
    /// The last token this process renewed, and what replaced it: a 401 to that token that comes in after
    /// its renewal ended (a slow caller) takes the new token without exchanging the session again.
    private var renewed: (spent: String, token: String)?
    /// The claims of the token last checked: every request checks its token, and a first sync of ten
    /// thousand entries sends a hundred with one.
    private var checked: (token: String, claims: AccessTokenClaims?)?

    public init(store: any SessionStore, auth: any AuthRemote, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.auth = auth
        self.now = now
    }

    /// How many times one call renews its token before it gives up for now (it is retried later).
    static let maximumRenewals = 3

    /// Runs `call` with a valid access token; on a 401 refreshes (shared) and retries.
    ///
    /// Only a token issued by a refresh made for this call, refused in turn, ends the session. A token
    /// another request or process rotated in may have expired by the time this call uses it (short-lived
    /// tokens, a slow network): it is renewed again, ``maximumRenewals`` times at most.
    public func authorized<T: Sendable>(
        _ call: @Sendable (String) async throws(RemoteError) -> T
    ) async throws -> T {
        var token = try await validAccessToken()
        var issuedForThisCall = false
        for _ in 0...Self.maximumRenewals {
            do {
                return try await call(token)
            } catch {
                guard case .unauthorized(let message) = error else { throw error }
                if issuedForThisCall {
                    // A fresh token refused: the session is over.
                    let server = try await signOut()
                    throw SessionError.signedOut(server: server, reason: message)
                }
            }
            let renewal = try await renew(replacing: token)
            token = renewal.token
            issuedForThisCall = renewal.isIssued
        }
        // Others kept rotating the tokens under this call: nothing says the session is over; try later.
        throw RemoteError.tokensKeptChanging
    }

    /// The current access token, refreshed first when it is due.
    public func validAccessToken() async throws -> String {
        guard let session = try await store.load() else { throw SessionError.notSignedIn }
        guard let tokens = session.tokens else { throw SessionError.ended(server: session.account.server) }
        if let due = claims(of: tokens.accessToken)?.refreshDue(receivedAt: session.tokensReceivedAt),
            due <= now()
        {
            return try await refresh(replacing: tokens.accessToken)
        }
        return tokens.accessToken
    }

    /// `token`'s claims, decoded once while it stays the token in use.
    private func claims(of token: String) -> AccessTokenClaims? {
        if let checked, checked.token == token { return checked.claims }
        let claims = AccessTokenClaims(token: token)
        checked = (token, claims)
        return claims
    }

    /// Renews the tokens after `spent` failed or fell due; concurrent callers share one refresh.
    public func refresh(replacing spent: String) async throws -> String {
        try await renew(replacing: spent).token
    }

    /// A token after a renewal, and whether the server issued it for this renewal (not another's rotation).
    struct Renewal: Sendable {
        var token: String
        var isIssued: Bool
    }

    private func renew(replacing spent: String) async throws -> Renewal {
        if let refreshing { return try await refreshing.value }
        if let renewed, renewed.spent == spent { return Renewal(token: renewed.token, isIssued: false) }
        let task = Task { [store, auth, now] () throws -> Renewal in
            let outcome = ExchangeOutcome()
            let updated = try await store.exchange { fresh in
                guard var session = fresh else { throw SessionError.notSignedIn }
                guard let tokens = session.tokens else { throw SessionError.ended(server: session.account.server) }
                // Another process already rotated the tokens: use theirs (refresh tokens are single-use).
                if tokens.accessToken != spent { return session }
                do {
                    session.tokens = try await auth.refresh(refreshToken: tokens.refreshToken)
                    session.tokensReceivedAt = now()
                    outcome.issued.withLock { $0 = true }
                } catch let error as RemoteError {
                    guard case .unauthorized(let message) = error else { throw error }
                    session.tokens = nil
                    outcome.refusal.withLock { $0 = (session.account.server, message) }
                }
                return session
            }
            if let (server, message) = outcome.refusal.withLock({ $0 }) {
                throw SessionError.signedOut(server: server, reason: message)
            }
            guard let access = updated?.tokens?.accessToken else { throw SessionError.notSignedIn }
            return Renewal(token: access, isIssued: outcome.issued.withLock { $0 })
        }
        refreshing = task
        defer { refreshing = nil }
        let renewal = try await task.value
        renewed = (spent, renewal.token)
        return renewal
    }

    /// Forgets the session's tokens; returns the server it was with.
    private func signOut() async throws -> String {
        let ended = try await store.exchange { fresh in
            guard var session = fresh else { return nil }
            session.tokens = nil
            return session
        }
        guard let ended else { throw SessionError.notSignedIn }
        return ended.account.server
    }
}

/// Carries what happened in the locked exchange out of it: the server's refusal, or a token it issued.
private final class ExchangeOutcome: Sendable {
    /// The server that refused, and its message.
    let refusal = Mutex<(server: String, message: String)?>(nil)
    let issued = Mutex(false)
}
