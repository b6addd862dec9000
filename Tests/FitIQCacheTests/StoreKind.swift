import FitIQCache
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

/// The adapter a contract test runs against: the in-memory one, or the one that writes JSON files.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case inMemory, jsonFile

    var testDescription: String { rawValue }

    /// An account directory of this kind, its files (if any) under `root`.
    func directory(in root: URL) -> any AccountDirectory {
        switch self {
        case .inMemory: InMemoryAccountDirectory()
        case .jsonFile: JSONFileAccountDirectory(paths: CachePaths(root: root))
        }
    }

    /// A profile store of this kind, its files (if any) in `folder`.
    func profileStore(in folder: URL) -> any ProfileStore {
        switch self {
        case .inMemory: InMemoryProfileStore()
        case .jsonFile:
            JSONFileProfileStore(
                folder: folder.appendingPathComponent("account"),
                lock: AccountLock(file: folder.appendingPathComponent("lock")))
        }
    }
}
