import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The account's cached profile, outbox and history in `account.json`, shared safely between processes.
///
/// Reads take no lock (atomic renames make every read see a whole file); each update takes the account
/// lock, re-reads the file, applies the change and writes the result atomically. A file that cannot be
/// read is moved aside as `account.json.corrupt-<time>`, never overwritten.
public struct JSONFileProfileStore: ProfileStore {
    /// The file's name in the account's data folder.
    public static let fileName = "account.json"

    /// The account's data folder, which ``erase()`` removes.
    public let folder: URL
    /// The lock shared with the account's session store.
    public let lock: AccountLock
    var file: CacheFile<AccountFile>

    /// Keeps the cache in `folder/account.json`, guarded by `lock`; `now` names moved-aside files.
    public init(folder: URL, lock: AccountLock, now: @escaping @Sendable () -> Date = { Date() }) {
        self.folder = folder.standardizedFileURL
        self.lock = lock
        self.file = CacheFile(url: self.folder.appendingPathComponent(Self.fileName), now: now)
    }

    /// `folder/account.json`.
    public var fileURL: URL { file.url }

    public func load() async throws -> AccountState {
        switch try file.contents() {
        case .missing: return .empty
        case .newer(let version): throw file.newer(version)
        case .value(let state): return state
        case .unreadable:
            // Move it aside under the lock: a writer may have replaced it since it was read.
            return try await lock.withLock { try file.readRecovering() ?? .empty }
        }
    }

    public func update<T: Sendable>(_ change: @Sendable (inout AccountState) throws -> T) async throws -> T {
        try await lock.withLock {
            let current = try file.readRecovering() ?? .empty
            var state = current
            let result = try change(&state)
            if state != current { try file.write(state) }
            return result
        }
    }

    public func erase() async throws {
        try await lock.withLock { try CacheDirectory.remove(folder) }
    }

    /// The file's identity, size and modification time: every write renames a new file into place, so
    /// any write changes at least the inode.
    public func revision() async -> StoreRevision? {
        var info = stat()
        guard stat(file.url.path, &info) == 0 else { return nil }
        return StoreRevision([
            Int64(info.st_dev), Int64(info.st_ino), Int64(info.st_size), Int64(info.st_mtim.tv_sec),
            Int64(info.st_mtim.tv_nsec),
        ])
    }
}
