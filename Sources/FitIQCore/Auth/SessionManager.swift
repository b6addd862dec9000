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
    private var refreshing: Task<String, any Error>?

    public init(store: any SessionStore, auth: any AuthRemote, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.auth = auth
        self.now = now
    }

    /// Runs `call` with a valid access token; on a 401 refreshes once (shared) and retries once.
    public func authorized<T: Sendable>(
        _ call: @Sendable (String) async throws(RemoteError) -> T
    ) async throws -> T {
        let token = try await validAccessToken()
        do {
            return try await call(token)
        } catch {
            guard case .unauthorized = error else { throw error }
        }
        let renewed = try await refresh(replacing: token)
        do {
            return try await call(renewed)
        } catch {
            guard case .unauthorized(let message) = error else { throw error }
            // A fresh token refused again: the session is over.
            try await signOut()
            throw SessionError.signedOut(reason: message)
        }
    }

    /// The current access token, refreshed first when it is due.
    public func validAccessToken() async throws -> String {
        guard let session = try await store.load() else { throw SessionError.notSignedIn }
        guard let tokens = session.tokens else { throw SessionError.signedOut(reason: "the session has ended") }
        if let due = AccessTokenClaims(token: tokens.accessToken)?.refreshDue(receivedAt: session.tokensReceivedAt),
            due <= now()
        {
            return try await refresh(replacing: tokens.accessToken)
        }
        return tokens.accessToken
    }

    /// Renews the tokens after `spent` failed or fell due; concurrent callers share one refresh.
    public func refresh(replacing spent: String) async throws -> String {
        if let refreshing { return try await refreshing.value }
        let task = Task { [store, auth, now] () throws -> String in
            let refusal = Refusal()
            let updated = try await store.exchange { fresh in
                guard var session = fresh else { throw SessionError.notSignedIn }
                guard let tokens = session.tokens else { throw SessionError.signedOut(reason: "the session has ended") }
                // Another process already rotated the tokens: use theirs (refresh tokens are single-use).
                if tokens.accessToken != spent { return session }
                do {
                    session.tokens = try await auth.refresh(refreshToken: tokens.refreshToken)
                    session.tokensReceivedAt = now()
                } catch let error as RemoteError {
                    guard case .unauthorized(let message) = error else { throw error }
                    session.tokens = nil
                    refusal.message.withLock { $0 = message }
                }
                return session
            }
            if let message = refusal.message.withLock({ $0 }) { throw SessionError.signedOut(reason: message) }
            guard let access = updated?.tokens?.accessToken else { throw SessionError.notSignedIn }
            return access
        }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    private func signOut() async throws {
        _ = try await store.exchange { fresh in
            guard var session = fresh else { return nil }
            session.tokens = nil
            return session
        }
    }
}

/// Carries the server's refusal out of the locked exchange.
private final class Refusal: Sendable {
    let message = Mutex<String?>(nil)
}
