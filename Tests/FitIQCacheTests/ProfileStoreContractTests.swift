import FitIQCache
import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

/// The behaviour every ``ProfileStore`` shares, run against the in-memory and the JSON-file store.
struct ProfileStoreContractTests {
    @Test(arguments: StoreKind.allCases)
    func loadsEmptyWhenNothingWasSaved(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            #expect(try await store.load() == .empty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theRevisionMovesWithEveryWriteAndOnlyThen(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            let first = try #require(await store.revision())
            _ = try await store.load()
            try await store.update { _ in }  // no change, no write
            #expect(await store.revision() == first)
            try await store.update { $0 = CacheFixtures.state(name: "Grace") }
            #expect(await store.revision() != first)
        }
    }

    @Test func anotherProcesssWriteMovesTheRevision() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            // Two stores on one folder stand for two processes of one account.
            let mine = StoreKind.jsonFile.profileStore(in: folder)
            let theirs = StoreKind.jsonFile.profileStore(in: folder)
            try await mine.update { $0 = CacheFixtures.state(name: "Ada") }
            let before = await mine.revision()
            try await theirs.update { $0 = CacheFixtures.state(name: "Ada Lovelace") }
            #expect(await mine.revision() != before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func loadsWhatAnUpdateSaved(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            #expect(try await store.load() == CacheFixtures.state(name: "Ada"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updateReturnsTheChangesResult(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            let result = try await store.update { state -> String in
                state.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 1)
                return "done"
            }
            #expect(result == "done")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updateSeesThePreviousUpdate(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            let seen = try await store.update { state -> String? in
                let name = state.profile?.name
                state.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 2)
                return name
            }
            #expect(seen == "Ada")
            #expect(try await store.load().server.lastSyncAt == Date(timeIntervalSinceReferenceDate: 2))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func failingChangeSavesNothing(kind: StoreKind) async throws {
        struct Refused: Error {}
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            await #expect(throws: Refused.self) {
                try await store.update { state in
                    state = CacheFixtures.state(name: "Bob")
                    throw Refused()
                }
            }
            #expect(try await store.load() == CacheFixtures.state(name: "Ada"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func eraseForgetsEverything(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            try await store.update { $0 = CacheFixtures.state(name: "Ada") }
            try await store.erase()
            #expect(try await store.load() == .empty)
            try await store.update { $0.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 3) }
            #expect(try await store.load().server.lastSyncAt == Date(timeIntervalSinceReferenceDate: 3))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentUpdatesAllLand(kind: StoreKind) async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = kind.profileStore(in: folder)
            // Given two tasks each appending 25 entries at the same time
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<2 {
                    group.addTask {
                        for index in 0..<25 {
                            try await store.update { state in
                                state.history.append(
                                    ProgressEntry(
                                        quantity: Double(task * 100 + index),
                                        loggedAt: Date(timeIntervalSinceReferenceDate: 0), source: .manual))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            // Then no update was lost
            #expect(try await store.load().history.count == 50)
        }
    }
}
