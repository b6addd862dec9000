import Foundation
import HummingbirdBcrypt

/// What the route handlers share: storage, tokens, settings and time.
struct DevServerServices: Sendable {
    let store: DevStore
    let issuer: TokenIssuer
    let configuration: DevServerConfiguration
    let now: @Sendable () -> Date

    /// The current instant as a stored timestamp.
    var timestamp: Timestamp { Timestamp(now()) }

    /// Today's date in UTC.
    var today: CalendarDate { CalendarDate(utcDayOf: now()) }

    /// A new lowercase UUID string.
    static func makeID() -> String {
        UUID().uuidString.lowercased()
    }

    /// Hashes a password with the configured bcrypt cost.
    func hashPassword(_ password: String) -> String {
        Bcrypt.hash(password, cost: configuration.bcryptCost)
    }

    /// Issues and stores a new token pair for the account.
    func issueTokens(for user: UserRecord) async throws -> TokenIssuer.TokenPair {
        let now = now()
        let access = try await issuer.accessToken(userID: user.id, email: user.email, now: now)
        let refresh = TokenIssuer.makeRefreshToken()
        try await store.insertRefreshToken(refresh, userID: user.id, expiresAt: refreshExpiry(from: now))
        return TokenIssuer.TokenPair(accessToken: access, refreshToken: refresh)
    }

    /// When a refresh token issued at `now` expires.
    func refreshExpiry(from now: Date) -> Timestamp {
        Timestamp(milliseconds: Timestamp(now).milliseconds + Int64(configuration.refreshTokenTTL) * 1000)
    }
}
