import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer
@testable import FitIQHTTP

struct FaultTests {
    @Test func failRateOneAnswers503AndWritesNothing() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("db.sqlite").path)
            // Given a server that fails every API request
            try await TestSupport.withServer(TestSupport.configuration(storage: storage, failRate: 1)) { api in
                let register = try await api.send(
                    .post, "/api/v1/auth/register",
                    body:
                        #"{"email":"ana@example.com","password":"correct horse","name":"Ana","date_of_birth":"1990-01-01"}"#
                )
                #expect(register.status == .serviceUnavailable)
                #expect(register.errorMessage != nil)
                #expect(register.json?.keys.sorted() == ["error"])
                // Even requests without credentials fail the same way; /health is exempt
                #expect(try await api.send(.get, "/api/v1/progress", apiKey: nil).status == .serviceUnavailable)
                #expect(try await api.send(.get, "/health", apiKey: nil).status == .ok)
            }
            // Then a healthy server on the same database has no such account
            try await TestSupport.withServer(TestSupport.configuration(storage: storage)) { api in
                let login = try await api.send(
                    .post, "/api/v1/auth/login", body: #"{"email":"ana@example.com","password":"correct horse"}"#)
                #expect(login.status == .unauthorized)
            }
        }
    }

    @Test func dropRateOneStoresTheWriteButClosesTheConnection() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("db.sqlite").path)
            let account = try await TestSupport.withServer(TestSupport.configuration(storage: storage)) { api in
                try await api.register()
            }
            // When a live server drops every API connection after doing the work
            let dropping = TestSupport.configuration(storage: storage, dropRate: 1)
            try await TestSupport.withServer(dropping) { api in
                await #expect(throws: CurlFailure.self) {
                    _ = try await api.send(
                        .post, "/api/v1/progress", token: account.accessToken,
                        body: #"{"type":"height","quantity":171.5,"logged_at":"2026-03-09T12:00:00Z"}"#)
                }
                let health = try await api.send(.get, "/health", apiKey: nil)
                #expect(health.status == .ok)
            }
            // Then the entry was stored anyway: the ambiguous failure a client must deduplicate
            try await TestSupport.withServer(TestSupport.configuration(storage: storage)) { api in
                let list = try await api.send(.get, "/api/v1/progress", token: account.accessToken)
                let entries = list.data["entries"] as? [[String: Any]] ?? []
                #expect(entries.count == 1)
                #expect(entries.first?["quantity"] as? Double == 171.5)
            }
        }
    }

    @Test func latencyDelaysAPIRequestsButNotHealth() async throws {
        let clock = TestSupport.clock()
        try await TestSupport.withServer(TestSupport.configuration(latencyMilliseconds: 250), clock: clock) { api in
            _ = try await api.send(.get, "/health", apiKey: nil)
            #expect(clock.skippedSleeps.isEmpty)
            _ = try await api.send(.get, "/api/v1/progress")
            #expect(clock.skippedSleeps == [.milliseconds(250)])
        }
    }

    @Test func sameSeedReplaysTheSameDecisions() {
        let first = FaultInjector(failRate: 0.3, dropRate: 0.1, seed: 7)
        let second = FaultInjector(failRate: 0.3, dropRate: 0.1, seed: 7)
        let a = (0..<200).map { _ in first.decide() }
        let b = (0..<200).map { _ in second.decide() }
        #expect(a == b)
    }

    @Test func ratesAreRoughlyTheRequestedShares() {
        let injector = FaultInjector(failRate: 0.3, dropRate: 0.1, seed: 1)
        let decisions = (0..<10_000).map { _ in injector.decide() }
        let fails = decisions.filter { $0 == .fail }.count
        let drops = decisions.filter { $0 == .drop }.count
        #expect((2700...3300).contains(fails))
        #expect((800...1200).contains(drops))
    }

    @Test func noRatesMeansNoFaults() {
        let injector = FaultInjector(failRate: 0, dropRate: 0, seed: 1)
        #expect((0..<100).allSatisfy { _ in injector.decide() == .pass })
    }
}
