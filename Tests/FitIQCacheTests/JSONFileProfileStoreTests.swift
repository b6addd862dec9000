import FitIQCore
import Foundation
import Testing

@testable import FitIQCache

struct JSONFileProfileStoreTests {
    private func makeStore(in folder: URL, now: @escaping @Sendable () -> Date = { Date() }) -> JSONFileProfileStore {
        JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")),
            now: now)
    }

    @Test func richStateRoundTripsLosslessly() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let state = try CacheFixtures.richState()
            #expect(state.outbox.metadata != nil && state.outbox.physical != nil && state.outbox.progress.count == 2)
            #expect(state.outbox.deletions.map(\.sendAttempted) == [true, false])
            try await makeStore(in: folder).update { $0 = state }
            // A new store instance reads the file, not a copy in memory.
            let loaded = try await makeStore(in: folder).load()
            // The history comes back in the cache's one order: oldest first.
            var ordered = state
            ordered.history.sort { $0.loggedAt < $1.loggedAt }
            #expect(loaded == ordered)
        }
    }

    @Test func fileCarriesSchemaVersionAndState() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            let data = try Data(contentsOf: store.fileURL)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == 3)
            #expect(object["state"] is [String: Any])
            #expect(object["history"] is [String: Any])
            #expect(try permissions(of: store.fileURL) == 0o600)
        }
    }

    @Test func unchangedStateIsNotWritten() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await store.update { _ in }
            #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        }
    }

    @Test func twoStoreInstancesOnOneFileLoseNoUpdate() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            // Two stores with separate lock objects: only the lock file keeps them apart.
            let first = makeStore(in: folder)
            let second = makeStore(in: folder)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in [first, second] {
                    group.addTask {
                        for _ in 0..<20 {
                            try await store.update { state in
                                state.history.append(
                                    ProgressEntry(
                                        quantity: 1, loggedAt: Date(timeIntervalSinceReferenceDate: 0), source: .manual)
                                )
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await first.load().history.count == 40)
        }
    }

    @Test func failedWriteKeepsThePreviousState() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            var store = makeStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            store.file.atomicFile.system.write = { _, _ in
                errno = ENOSPC
                return -1
            }
            do {
                try await store.update { $0 = CacheFixtures.state(name: "Bob") }
                Issue.record("the write should have failed")
            } catch let error as CacheError {
                #expect(error == .writeFailed(path: store.fileURL.path, reason: "No space left on device (errno 28)"))
                #expect(error.description.contains(store.fileURL.path))
            }
            #expect(try await makeStore(in: folder).load() == CacheFixtures.state(name: "Ada"))
            #expect(fileNames(in: store.folder) == ["account.json"])
        }
    }
}
