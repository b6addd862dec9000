import FitIQCache
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

/// Current-account and erase behaviour shared by the JSON-file and in-memory directories.
struct AccountDirectoryTests {
    static let ada = AccountKey(server: "https://one.example.com", userId: "ada")
    static let bob = AccountKey(server: "https://two.example.com", userId: "bob")
    static let cy = AccountKey(server: "https://one.example.com", userId: "cy")

    @Test(arguments: StoreKind.allCases)
    func noAccountIsCurrentAtFirst(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = kind.directory(in: root)
            #expect(try await directory.currentAccount(server: nil) == nil)
            #expect(try await directory.currentAccount(server: Self.ada.server) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func currentAccountIsTheLastSignedInPerServer(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = kind.directory(in: root)
            try await directory.setCurrentAccount(Self.ada)
            try await directory.setCurrentAccount(Self.bob)
            #expect(try await directory.currentAccount(server: nil) == Self.bob)
            #expect(try await directory.currentAccount(server: Self.ada.server) == Self.ada)
            try await directory.setCurrentAccount(Self.cy)
            #expect(try await directory.currentAccount(server: Self.ada.server) == Self.cy)
            #expect(try await directory.currentAccount(server: Self.bob.server) == Self.bob)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func eraseForgetsTheAccountAndItsData(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = kind.directory(in: root)
            try await directory.profileStore(for: Self.ada).update { $0 = CacheFixtures.state(name: "Ada") }
            try await directory.sessionStore(for: Self.ada).save(
                Session(account: Self.ada, email: "ada@example.com", tokens: nil))
            try await directory.profileStore(for: Self.bob).update { $0 = CacheFixtures.state(name: "Bob") }
            try await directory.setCurrentAccount(Self.bob)
            try await directory.setCurrentAccount(Self.ada)
            try await directory.erase(Self.ada)
            #expect(try await directory.currentAccount(server: nil) == nil)
            #expect(try await directory.currentAccount(server: Self.ada.server) == nil)
            #expect(try await directory.currentAccount(server: Self.bob.server) == Self.bob)
            #expect(try await directory.profileStore(for: Self.ada).load() == .empty)
            #expect(try await directory.sessionStore(for: Self.ada).load() == nil)
            #expect(try await directory.profileStore(for: Self.bob).load() == CacheFixtures.state(name: "Bob"))
        }
    }

    @Test func eraseRemovesTheAccountFolders() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let directory = JSONFileAccountDirectory(paths: paths)
            try await directory.profileStore(for: Self.ada).update { $0 = CacheFixtures.state(name: "Ada") }
            try await directory.sessionStore(for: Self.ada).save(
                Session(account: Self.ada, email: "ada@example.com", tokens: nil))
            try await directory.erase(Self.ada)
            #expect(!FileManager.default.fileExists(atPath: paths.accountDataDirectory(for: Self.ada).path))
            #expect(!FileManager.default.fileExists(atPath: paths.accountStateDirectory(for: Self.ada).path))
        }
    }

    /// Two terminals on two accounts: another process holding one account's lock keeps this one from
    /// that account's files only; the other account's writes go ahead.
    @Test(.timeLimit(.minutes(5))) func theLockIsPerAccount() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            let directory = JSONFileAccountDirectory(paths: paths, lockTimeout: .milliseconds(200))
            #expect(directory.lock(for: Self.ada).file != directory.lock(for: Self.cy).file)
            let holder = try ChildProcess.crashChild([
                "hold-lock", paths.accountStateDirectory(for: Self.ada).path, "60000",
            ])
            try await holder.waitForLines { $0.count >= 1 }
            try await directory.profileStore(for: Self.cy).update { $0 = CacheFixtures.state(name: "Cy") }
            await #expect(throws: CacheError.locked(pid: holder.pid, path: paths.lockFile(for: Self.ada).path)) {
                try await directory.profileStore(for: Self.ada).update { $0 = CacheFixtures.state(name: "Ada") }
            }
            holder.signal(SIGTERM)
            _ = await holder.exit()
            #expect(try await directory.profileStore(for: Self.cy).load() == CacheFixtures.state(name: "Cy"))
            #expect(try await directory.profileStore(for: Self.ada).load() == .empty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func knownAccountsAreThoseWithASessionByEmail(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = kind.directory(in: root)
            #expect(try await directory.knownAccounts().isEmpty)
            for (key, email) in [
                (Self.cy, "cy@example.com"), (Self.bob, "bob@example.com"), (Self.ada, "ada@example.com"),
            ] {
                try await directory.sessionStore(for: key).save(Session(account: key, email: email, tokens: nil))
            }
            // A cache without a session is no account.
            try await directory.profileStore(for: AccountKey(server: Self.ada.server, userId: "gone")).update {
                $0 = CacheFixtures.state(name: "Gone")
            }
            #expect(
                try await directory.knownAccounts() == [
                    KnownAccount(key: Self.ada, email: "ada@example.com"),
                    KnownAccount(key: Self.bob, email: "bob@example.com"),
                    KnownAccount(key: Self.cy, email: "cy@example.com"),
                ])
            try await directory.erase(Self.bob)
            #expect(try await directory.knownAccounts().map(\.email) == ["ada@example.com", "cy@example.com"])
        }
    }

    @Test func currentAccountFileIsVersionedAndPrivate() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let paths = CachePaths(root: root)
            try await JSONFileAccountDirectory(paths: paths).setCurrentAccount(Self.ada)
            let data = try Data(contentsOf: paths.currentAccountFile)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == 1)
            #expect((object["byServer"] as? [String: String])?[Self.ada.server] == "ada")
            #expect(try permissions(of: paths.currentAccountFile) == 0o600)
            // Another directory (another process) sees it, also with another spelling of the server.
            let other = JSONFileAccountDirectory(paths: paths)
            #expect(try await other.currentAccount(server: "https://ONE.example.com/")?.userId == "ada")
        }
    }

    @Test func storesOfOneAccountShareOneLock() async throws {
        try await withTemporaryDirectory { (root: URL) async throws in
            let directory = JSONFileAccountDirectory(paths: CachePaths(root: root))
            let profile = try #require(try directory.profileStore(for: Self.ada) as? JSONFileProfileStore)
            let session = try #require(try directory.sessionStore(for: Self.ada) as? JSONFileSessionStore)
            let otherProfile = try #require(try directory.profileStore(for: Self.bob) as? JSONFileProfileStore)
            #expect(profile.lock === session.lock)
            #expect(profile.lock !== otherProfile.lock)
        }
    }
}
