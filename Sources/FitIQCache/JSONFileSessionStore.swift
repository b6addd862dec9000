import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The account's session in `session.json`, mode 0600, shared safely between processes.
///
/// Saving takes the account lock; ``exchange(_:)`` re-reads the file and runs its body under the lock,
/// so two processes never spend the same refresh token.
public struct JSONFileSessionStore: SessionStore {
    /// The file's name in the account's state folder.
    public static let fileName = "session.json"

    /// The lock shared with the account's profile store.
    public let lock: AccountLock
    var file: CacheFile<SessionFile>
    /// The session last read or written, with the file's bytes: every request reads the file (another
    /// process may have refreshed the tokens), and bytes seen before are not decoded again.
    private let memory = Memory()

    private final class Memory: Sendable {
        let known = Mutex<(bytes: Data, session: Session)?>(nil)
    }

    /// Keeps the session in `folder/session.json`, guarded by `lock`; `now` names moved-aside files.
    public init(folder: URL, lock: AccountLock, now: @escaping @Sendable () -> Date = { Date() }) {
        self.lock = lock
        self.file = CacheFile(
            url: folder.standardizedFileURL.appendingPathComponent(Self.fileName, isDirectory: false), now: now)
    }

    /// `folder/session.json`.
    public var fileURL: URL { file.url }

    public func load() async throws -> Session? {
        guard let data = try file.readData() else { return nil }
        if let known = memory.known.withLock({ $0 }), known.bytes == data { return known.session }
        switch CacheFile<SessionFile>.decode(data) {
        case .missing: return nil
        case .newer(let version): throw file.newer(version)
        case .value(let session):
            remember(session, data)
            return session
        case .unreadable: return try await lock.withLock { try file.readRecovering() }
        }
    }

    public func save(_ session: Session) async throws {
        try await lock.withLock { try write(session) }
    }

    public func delete() async throws {
        try await lock.withLock { try file.delete() }
    }

    public func exchange(_ body: @Sendable (Session?) async throws -> Session?) async throws -> Session? {
        try await lock.withLock {
            let current = try file.readRecovering()
            let next = try await body(current)
            if next != current {
                if let next { try write(next) } else { try file.delete() }
            }
            return next
        }
    }

    private func write(_ session: Session) throws(CacheError) {
        remember(session, try file.write(session))
    }

    private func remember(_ session: Session, _ bytes: Data) {
        memory.known.withLock { $0 = (bytes, session) }
    }
}

/// `session.json`, schema version 1: `{"schemaVersion": 1, "session": {…}}`, its layout written out
/// here and mapped to the domain's ``Session`` (see ``AccountFile``).
struct SessionFile: VersionedFileFormat {
    static let schemaVersion = 1
    var schemaVersion: Int
    var session: SessionV1

    struct SessionV1: Codable, Sendable {
        struct TokensV1: Codable, Sendable {
            var accessToken: String
            var refreshToken: String
        }

        var account: AccountKeyV1
        var email: String
        var apiKey: String?
        var tokens: TokensV1?
        var tokensReceivedAt: Date?
    }

    init(value: Session) {
        schemaVersion = Self.schemaVersion
        session = SessionV1(
            account: AccountKeyV1(value.account), email: value.email, apiKey: value.apiKey,
            tokens: value.tokens.map { SessionV1.TokensV1(accessToken: $0.accessToken, refreshToken: $0.refreshToken) },
            tokensReceivedAt: value.tokensReceivedAt)
    }

    var value: Session {
        Session(
            account: session.account.domain, email: session.email, apiKey: session.apiKey,
            tokens: session.tokens.map { TokenPair(accessToken: $0.accessToken, refreshToken: $0.refreshToken) },
            tokensReceivedAt: session.tokensReceivedAt)
    }
}

/// An account's key as the cache files store it: `{"server": …, "userId": …}`.
struct AccountKeyV1: Codable, Sendable {
    var server: String
    var userId: String

    init(_ key: AccountKey) {
        server = key.server
        userId = key.userId
    }

    var domain: AccountKey { AccountKey(server: server, userId: userId) }
}
