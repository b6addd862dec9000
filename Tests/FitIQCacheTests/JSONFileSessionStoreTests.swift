import FitIQCache
import FitIQCore
import Foundation
import Testing

struct JSONFileSessionStoreTests {
    static let session = Session(
        account: CacheFixtures.account, email: "ada@example.com", apiKey: "key-1",
        tokens: TokenPair(accessToken: "access-1", refreshToken: "refresh-1"),
        tokensReceivedAt: Date(timeIntervalSinceReferenceDate: 754_000_000.123_456))

    @Test func savedSessionLoadsBack() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = JSONFileAccountDirectory(paths: CachePaths(root: root))
            let store = try directory.sessionStore(for: CacheFixtures.account)
            #expect(try await store.load() == nil)
            try await store.save(Self.session)
            #expect(try await directory.sessionStore(for: CacheFixtures.account).load() == Self.session)
            try await store.delete()
            #expect(try await store.load() == nil)
        }
    }

    /// Every request loads the session, and bytes seen before are not decoded again: a session another
    /// process saved, or a file changed under the store, is what the next load gives.
    @Test func aLoadGivesWhatTheFileHoldsNowNotWhatWasReadBefore() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let store = try JSONFileAccountDirectory(paths: paths).sessionStore(for: CacheFixtures.account)
            let other = try JSONFileAccountDirectory(paths: paths).sessionStore(for: CacheFixtures.account)
            try await store.save(Self.session)
            #expect(try await store.load() == Self.session)
            var refreshed = Self.session
            refreshed.tokens = TokenPair(accessToken: "access-2", refreshToken: "refresh-2")
            try await other.save(refreshed)
            #expect(try await store.load() == refreshed)
            // The same length, one byte changed: the file is read, not the memory.
            let file = paths.sessionFile(for: CacheFixtures.account)
            let text = try String(contentsOf: file, encoding: .utf8)
            try text.replacingOccurrences(of: "access-2", with: "access-3").write(
                to: file, atomically: false, encoding: .utf8)
            #expect(try await store.load()?.tokens?.accessToken == "access-3")
            try await other.delete()
            #expect(try await store.load() == nil)
        }
    }

    @Test func sessionFileIsPrivateEvenOverALooserFile() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let store = try JSONFileAccountDirectory(paths: paths).sessionStore(for: CacheFixtures.account)
            let file = paths.sessionFile(for: CacheFixtures.account)
            try await store.save(Self.session)
            #expect(try permissions(of: file) == 0o600)
            // Given a session file someone made readable by everyone
            #expect(chmod(file.path, 0o644) == 0)
            // When the session is saved again, then it is private again
            try await store.save(Self.session)
            #expect(try permissions(of: file) == 0o600)
        }
    }

    @Test func accountFoldersArePrivate() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let directory = JSONFileAccountDirectory(paths: paths)
            try await directory.sessionStore(for: CacheFixtures.account).save(Self.session)
            try await directory.profileStore(for: CacheFixtures.account).update {
                $0 = CacheFixtures.state(name: "Ada")
            }
            let stateFolder = paths.accountStateDirectory(for: CacheFixtures.account)
            let dataFolder = paths.accountDataDirectory(for: CacheFixtures.account)
            for folder in [
                stateFolder, stateFolder.deletingLastPathComponent(), paths.stateDirectory, dataFolder,
                dataFolder.deletingLastPathComponent(), paths.dataDirectory,
            ] {
                #expect(try permissions(of: folder) == 0o700, "\(folder.path)")
            }
            #expect(try permissions(of: paths.lockFile(for: CacheFixtures.account)) == 0o600)
            #expect(try permissions(of: paths.profileFile(for: CacheFixtures.account)) == 0o600)
        }
    }

    @Test func exchangesRunOneAtATimeOnTheFreshestSession() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = JSONFileAccountDirectory(paths: CachePaths(root: root))
            let store = try directory.sessionStore(for: CacheFixtures.account)
            try await store.save(Self.session)
            // Given a refresh inside its exchange, waiting on the network (here: until it is told to go on)
            let inside = Signal()
            let answered = Signal()
            let calling = Signal()
            let first = Task {
                try await store.exchange { fresh in
                    inside.send()
                    await answered.wait()
                    return Self.rotated(fresh)
                }
            }
            await inside.wait()
            // When a second refresh starts meanwhile, and only then the first one's answer comes
            let second = Task {
                calling.send()
                return try await store.exchange { fresh in Self.rotated(fresh) }
            }
            await calling.wait()
            answered.send()
            _ = try await (first.value, second.value)
            // Then the second saw the first one's tokens: no refresh token was spent twice
            #expect(try await store.load()?.tokens?.refreshToken == "refresh-3")
        }
    }

    /// `session` with its tokens rotated, as a refresh does: refresh-N becomes refresh-(N + 1).
    private static func rotated(_ session: Session?) -> Session? {
        guard var session, let tokens = session.tokens else { return session }
        let next = (Int(tokens.refreshToken.dropFirst("refresh-".count)) ?? 0) + 1
        session.tokens = TokenPair(accessToken: "access-\(next)", refreshToken: "refresh-\(next)")
        return session
    }

    @Test func exchangeReturningNilDeletesTheSession() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let store = try JSONFileAccountDirectory(paths: paths).sessionStore(for: CacheFixtures.account)
            try await store.save(Self.session)
            let result = try await store.exchange { _ in nil }
            #expect(result == nil)
            #expect(!FileManager.default.fileExists(atPath: paths.sessionFile(for: CacheFixtures.account).path))
        }
    }

    @Test func exchangeMayUseTheProfileStoreOfTheSameAccount() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = JSONFileAccountDirectory(paths: CachePaths(root: root), lockTimeout: .seconds(2))
            let sessions = try directory.sessionStore(for: CacheFixtures.account)
            let profiles = try directory.profileStore(for: CacheFixtures.account)
            try await sessions.save(Self.session)
            // The lock is re-entrant for the task holding it, so this does not deadlock.
            _ = try await sessions.exchange { fresh in
                try await profiles.update { $0.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 5) }
                return fresh
            }
            #expect(try await profiles.load().server.lastSyncAt == Date(timeIntervalSinceReferenceDate: 5))
        }
    }
}
