import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The accounts kept on disk under the XDG folders, and which one is current (`<state>/current.json`).
///
/// Stores made for one account share one ``AccountLock``, so the tasks of this process queue on it
/// in order while other processes are kept out by its lock file.
public final class JSONFileAccountDirectory: AccountDirectory {
    /// The folders used.
    public let paths: CachePaths
    /// How long to wait for another process holding an account's lock.
    public let lockTimeout: Duration
    private let now: @Sendable () -> Date
    private let locks = Mutex<[String: AccountLock]>([:])
    private let currentFile: CacheFile<CurrentAccountFile>
    private let currentLock: AccountLock

    /// Keeps accounts under `paths`; `now` names moved-aside files.
    public init(
        paths: CachePaths, lockTimeout: Duration = .seconds(5), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.paths = paths
        self.lockTimeout = lockTimeout
        self.now = now
        self.currentFile = CacheFile(url: paths.currentAccountFile, now: now)
        self.currentLock = AccountLock(file: paths.currentAccountLockFile, timeout: lockTimeout)
    }

    /// The lock of `account`, the same instance for every store of the account made here.
    public func lock(for account: AccountKey) -> AccountLock {
        lock(at: paths.lockFile(for: account))
    }

    private func lock(at file: URL) -> AccountLock {
        locks.withLock { locks in
            if let lock = locks[file.path] { return lock }
            let lock = AccountLock(file: file, timeout: lockTimeout)
            locks[file.path] = lock
            return lock
        }
    }

    public func profileStore(for account: AccountKey) throws -> any ProfileStore {
        JSONFileProfileStore(folder: paths.accountDataDirectory(for: account), lock: lock(for: account), now: now)
    }

    public func sessionStore(for account: AccountKey) throws -> any SessionStore {
        JSONFileSessionStore(folder: paths.accountStateDirectory(for: account), lock: lock(for: account), now: now)
    }

    public func currentAccount(server: String?) async throws -> AccountKey? {
        let current: CurrentAccounts?
        switch try currentFile.contents() {
        case .missing: current = nil
        case .newer(let version): throw currentFile.newer(version)
        case .value(let value): current = value
        case .unreadable: current = try await currentLock.withLock { try currentFile.readRecovering() }
        }
        guard let current else { return nil }
        guard let server else { return current.last }
        let normalized = PathName.normalizedServer(server)
        if let last = current.last, PathName.normalizedServer(last.server) == normalized { return last }
        return current.byServer[normalized].map { AccountKey(server: server, userId: $0) }
    }

    public func setCurrentAccount(_ account: AccountKey) async throws {
        try await updateCurrent { current in
            current.last = account
            current.byServer[PathName.normalizedServer(account.server)] = account.userId
        }
    }

    /// Reads `<state>/accounts/<server>/<user>/session.json` of every folder there; a folder whose
    /// session names another account's folder (copied by hand) is left out.
    public func knownAccounts() async throws -> [KnownAccount] {
        let root = paths.stateDirectory.appendingPathComponent("accounts", isDirectory: true)
        let files = FileManager.default
        var known: [KnownAccount] = []
        for server in (try? files.contentsOfDirectory(atPath: root.path)) ?? [] {
            let serverFolder = root.appendingPathComponent(server, isDirectory: true)
            for user in (try? files.contentsOfDirectory(atPath: serverFolder.path)) ?? [] {
                let folder = serverFolder.appendingPathComponent(user, isDirectory: true)
                let store = JSONFileSessionStore(
                    folder: folder, lock: lock(at: folder.appendingPathComponent("lock", isDirectory: false)), now: now)
                guard let session = try await store.load(),
                    paths.accountStateDirectory(for: session.account).standardizedFileURL.path
                        == folder.standardizedFileURL.path
                else { continue }
                known.append(KnownAccount(key: session.account, email: session.email))
            }
        }
        return KnownAccount.sorted(known)
    }

    public func erase(_ account: AccountKey) async throws {
        try await lock(for: account).withLock {
            try CacheDirectory.remove(paths.accountDataDirectory(for: account))
            try CacheDirectory.remove(paths.accountStateDirectory(for: account))
        }
        // Leave no empty server folders behind.
        CacheDirectory.removeIfEmpty(paths.accountDataDirectory(for: account).deletingLastPathComponent())
        CacheDirectory.removeIfEmpty(paths.accountStateDirectory(for: account).deletingLastPathComponent())
        try await updateCurrent { current in
            if current.last == account { current.last = nil }
            let server = PathName.normalizedServer(account.server)
            if current.byServer[server] == account.userId { current.byServer[server] = nil }
        }
    }

    private func updateCurrent(_ change: @Sendable (inout CurrentAccounts) -> Void) async throws {
        try await currentLock.withLock {
            let current = try currentFile.readRecovering() ?? CurrentAccounts()
            var updated = current
            change(&updated)
            if updated != current { try currentFile.write(updated) }
        }
    }
}

/// Which account is current: the last signed in, and the last per server.
struct CurrentAccounts: Sendable, Codable, Equatable {
    var last: AccountKey?
    /// User id by normalised server URL.
    var byServer: [String: String] = [:]
}

/// `current.json`: `{"schemaVersion": 1, "last": {…}, "byServer": {"https://…": "user-id"}}`.
struct CurrentAccountFile: VersionedFileFormat {
    static let schemaVersion = 1
    var schemaVersion: Int
    var last: AccountKeyV1?
    var byServer: [String: String]

    init(value: CurrentAccounts) {
        self.schemaVersion = Self.schemaVersion
        self.last = value.last.map(AccountKeyV1.init)
        self.byServer = value.byServer
    }

    var value: CurrentAccounts { CurrentAccounts(last: last?.domain, byServer: byServer) }
}
