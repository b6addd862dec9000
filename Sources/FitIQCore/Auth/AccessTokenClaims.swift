#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The claims fitiq-tui reads from an access token's payload: the signature is the server's business.
public struct AccessTokenClaims: Sendable, Equatable {
    /// `sub`: the user id.
    public var subject: String?
    public var email: String?
    public var expiresAt: Date?
    public var issuedAt: Date?

    /// Decodes the payload segment of a JWT; `nil` when it is not a JWT.
    public init?(token: String) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        var base64 = String(segments[1]).replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let payload = try? JSONDecoder().decode(Payload.self, from: data)
        else { return nil }
        subject = payload.sub
        email = payload.email
        expiresAt = payload.exp.map { Date(timeIntervalSince1970: $0) }
        issuedAt = payload.iat.map { Date(timeIntervalSince1970: $0) }
    }

    /// The payload's claims that are read; any of them may be missing or of another type.
    private struct Payload: Decodable {
        var sub: String?
        var email: String?
        var exp: Double?
        var iat: Double?

        private enum Keys: String, CodingKey { case sub, email, exp, iat }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            sub = (try? container.decodeIfPresent(String.self, forKey: .sub)) ?? nil
            email = (try? container.decodeIfPresent(String.self, forKey: .email)) ?? nil
            exp = (try? container.decodeIfPresent(Double.self, forKey: .exp)) ?? nil
            iat = (try? container.decodeIfPresent(Double.self, forKey: .iat)) ?? nil
        }
    }

    /// When to refresh: ahead of `exp` by min(5 minutes, half the token's lifetime); `nil` when the
    /// token has no readable `exp` (then it counts as valid until the server says otherwise).
    public func refreshDue(receivedAt: Date?) -> Date? {
        guard let expiresAt else { return nil }
        let issued = issuedAt ?? receivedAt
        let lifetime = issued.map { expiresAt.timeIntervalSince($0) } ?? 600
        return expiresAt.addingTimeInterval(-min(300, max(0, lifetime) / 2))
    }
}
