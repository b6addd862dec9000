#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Identifies one account on one server: the unit of caching, locking and signing in.
public struct AccountKey: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The server's base URL as configured (`https://api.example.com`).
    public var server: String
    /// The user id (`sub` of the access token).
    public var userId: String

    public init(server: String, userId: String) {
        self.server = server
        self.userId = userId
    }

    public var description: String { "\(userId) on \(server)" }
}

/// A signed-in account: where, who, and its tokens. Stored only in the session file (mode 0600).
public struct Session: Sendable, Codable, Equatable {
    public var account: AccountKey
    public var email: String
    /// The API key used with this server, when it came from the command line or config at sign-in.
    public var apiKey: String?
    /// `nil` once the server refused to refresh them: the account is signed out, its outbox kept.
    public var tokens: TokenPair?
    /// When the current tokens were received, to refresh ahead of expiry.
    public var tokensReceivedAt: Date?

    public init(
        account: AccountKey, email: String, apiKey: String? = nil, tokens: TokenPair?, tokensReceivedAt: Date? = nil
    ) {
        self.account = account
        self.email = email
        self.apiKey = apiKey
        self.tokens = tokens
        self.tokensReceivedAt = tokensReceivedAt
    }

    /// Whether the session still has tokens.
    public var isSignedIn: Bool { tokens != nil }
}

/// Custom description that never shows tokens or the API key.
extension Session: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "Session(\(email), \(account), signedIn: \(isSignedIn))" }
    public var debugDescription: String { description }
}

extension TokenPair: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "TokenPair(<redacted>)" }
    public var debugDescription: String { description }
}
