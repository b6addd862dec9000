import Foundation

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
        var base64 = segments[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        subject = object["sub"] as? String
        email = object["email"] as? String
        expiresAt = (object["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        issuedAt = (object["iat"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
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
