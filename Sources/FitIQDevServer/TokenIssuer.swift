import Foundation
import JWTKit

/// Signs and checks HS256 access tokens and makes opaque refresh tokens.
struct TokenIssuer: Sendable {
    /// The claims of an access token: `sub` (user id), `email`, `exp` and `iat` in Unix seconds.
    struct AccessClaims: JWTPayload, Equatable {
        let sub: String
        let email: String
        let exp: Int64
        let iat: Int64

        // Expiry is checked against the injected clock in `verify(_:now:)`, not against the wall clock here.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A freshly issued pair.
    struct TokenPair: Sendable, Equatable {
        let accessToken: String
        let refreshToken: String
    }

    let keys: JWTKeyCollection
    let accessTokenTTL: Int

    /// Creates an issuer whose tokens are signed with `secret`.
    static func make(secret: String, accessTokenTTL: Int) async -> TokenIssuer {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return TokenIssuer(keys: keys, accessTokenTTL: accessTokenTTL)
    }

    /// Signs an access token for the account, valid for the configured lifetime from `now`.
    func accessToken(userID: String, email: String, now: Date) async throws -> String {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let claims = AccessClaims(sub: userID, email: email, exp: issuedAt + Int64(accessTokenTTL), iat: issuedAt)
        return try await keys.sign(claims)
    }

    /// The claims of a token that is well signed and not expired at `now`, else nil.
    func verify(_ token: String, now: Date) async -> AccessClaims? {
        guard let claims = try? await keys.verify(token, as: AccessClaims.self) else { return nil }
        guard Double(claims.exp) > now.timeIntervalSince1970 else { return nil }
        return claims
    }

    /// A new random refresh token (256 bits, base64url).
    static func makeRefreshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A random secret for runs that were given none (tokens then die with the process).
    static func makeRandomSecret() -> String {
        makeRefreshToken()
    }
}
