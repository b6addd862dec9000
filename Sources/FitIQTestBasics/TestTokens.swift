import Foundation

/// Unsigned JWTs with the claims the client reads, for tests.
public enum TestTokens {
    /// A token whose payload holds `sub`, `email`, `iat`, `exp` (and a nonce so tokens differ).
    public static func jwt(subject: String, email: String?, issuedAt: Date, expiresAt: Date, nonce: Int = 0) -> String {
        var payload: [String: Any] = [
            "sub": subject, "iat": Int(issuedAt.timeIntervalSince1970), "exp": Int(expiresAt.timeIntervalSince1970),
            "jti": nonce,
        ]
        if let email { payload["email"] = email }
        let header = base64URL(Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let body = base64URL((try? JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])) ?? Data())
        return "\(header).\(body).c2lnbmF0dXJl"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
