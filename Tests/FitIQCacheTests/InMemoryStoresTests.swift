import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

struct InMemoryStoresTests {
    @Test func profileStoreCountsOnlySavesThatChangedSomething() async throws {
        let store = InMemoryProfileStore(CacheFixtures.state(name: "Ada"))
        try await store.update { _ in }
        try await store.update { $0.lastSyncAt = Date(timeIntervalSinceReferenceDate: 1) }
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
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    _ = try await store.exchange { fresh in
                        guard var session = fresh else { return nil }
                        try await Task.sleep(for: .milliseconds(5))
                        session.email = "\((Int(session.email) ?? 0) + 1)"
                        return session
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await store.load()?.email == "3")
        #expect(await store.exchangeCount == 3)
    }
}
