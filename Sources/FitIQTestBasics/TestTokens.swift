import Foundation

/// Unsigned JWTs with the claims the client reads, for tests.
public enum TestTokens {
    /// The payload: `sub`, `email`, `iat`, `exp`, and a nonce so tokens differ.
    private struct Claims: Encodable {
        let sub: String
        let email: String?
        let iat: Int
        let exp: Int
        let jti: Int
    }

    /// A token whose payload holds `sub`, `email`, `iat`, `exp` (and a nonce so tokens differ).
    public static func jwt(subject: String, email: String?, issuedAt: Date, expiresAt: Date, nonce: Int = 0) -> String {
        let claims = Claims(
            sub: subject, email: email, iat: Int(issuedAt.timeIntervalSince1970),
            exp: Int(expiresAt.timeIntervalSince1970), jti: nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let body = base64URL((try? encoder.encode(claims)) ?? Data())
        return "\(header).\(body).c2lnbmF0dXJl"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
