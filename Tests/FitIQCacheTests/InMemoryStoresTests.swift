import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

struct InMemoryStoresTests {
    @Test func profileStoreCountsOnlySavesThatChangedSomething() async throws {
        let store = InMemoryProfileStore(CacheFixtures.state(name: "Ada"))
        try await store.update { _ in }
        try await store.update { $0.server.lastSyncAt = Date(timeIntervalSinceReferenceDate: 1) }
        #expect(await store.saveCount == 1)
        #expect(try await store.load().profile?.name == "Ada")
    }

    @Test func profileStoreCanBeMadeToFail() async throws {
        struct Broken: Error {}
        let store = InMemoryProfileStore()
        await store.fail(with: Broken())
        await #expect(throws: Broken.self) { try await store.load() }
        await store.fail(with: nil)
        #expect(try await store.load() == .empty)
    }

    @Test func sessionExchangesRunOneAtATime() async throws {
        let store = InMemorySessionStore(
            Session(account: CacheFixtures.account, email: "0", tokens: TokenPair(accessToken: "a", refreshToken: "r")))
        @Sendable func increment(_ fresh: Session?) -> Session? {
            guard var session = fresh else { return nil }
            session.email = "\((Int(session.email) ?? 0) + 1)"
            return session
        }
        // Given an exchange that stays inside until it is told to go on
        let inside = Signal()
        let goOn = Signal()
        let first = Task {
            try await store.exchange { fresh in
                inside.send()
                await goOn.wait()
                return increment(fresh)
            }
        }
        await inside.wait()
        // When two more start meanwhile, and only then the first one goes on
        let others = (0..<2).map { _ in
            let calling = Signal()
            let task = Task { () async throws -> Session? in
                calling.send()
                return try await store.exchange { increment($0) }
            }
            return (calling, task)
        }
        for (calling, _) in others { await calling.wait() }
        goOn.send()
        _ = try await first.value
        for (_, task) in others { _ = try await task.value }
        // Then each saw the one before it: no increment was lost
        #expect(await store.load()?.email == "3")
        #expect(await store.exchangeCount == 3)
    }
}
