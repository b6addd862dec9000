import Foundation
import Testing

@testable import FitIQDevServer

/// `--seed-email`, `--seed-heights`, `--seed-weights`: the benchmarks' long histories, added by the
/// server at start-up to an account it already holds.
struct HistorySeederTests {
    @Test func aRestartAddsTheHistoryToTheAccountAndItsNewestHeightToTheProfile() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = try await Self.databaseWithAna(in: folder)
            try await Self.withSeeded(.init(email: "ana@example.com", heights: 30, weights: 4_000), storage) {
                api, token in
                for (type, count) in [("height", 30), ("weight", 4_000)] {
                    let page = try await api.send(
                        .get, "/api/v1/progress?type=\(type)&from=2000-01-01&to=2100-01-01&limit=1", token: token)
                    #expect(page.data["total"] as? Int == count, "\(type): \(page.text)")
                }
                let me = try await api.send(.get, "/api/v1/users/me", token: token)
                let height = (me.data["profile"] as? [String: Any])?["height_cm"] as? Double
                // Heights cycle through 170.0–173.9 cm: the 30th is 172.9.
                #expect(height == 172.9, "\(me.text)")
            }
            var stranger = TestSupport.configuration(storage: storage)
            stranger.seedHistory = .init(email: "nobody@example.com", heights: 1, weights: 1)
            await #expect(throws: DevServerSetupError.seedAccountMissing("nobody@example.com")) {
                try await TestSupport.withServer(stranger) { _ in }
            }
        }
    }

    @Test func aProductionShapedHistoryEndsItsHeightsYearsAgoAndItsWeightsNow() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = try await Self.databaseWithAna(in: folder)
            let seed = DevServerConfiguration.SeedHistory(
                email: "ana@example.com", heights: 20, weights: 30, shape: .production)
            try await Self.withSeeded(seed, storage) { api, token in
                func dates(_ type: String) async throws -> [Date] {
                    let page = try await api.send(
                        .get, "/api/v1/progress?type=\(type)&from=2000-01-01&to=2100-01-01&limit=100", token: token)
                    let entries = page.data["entries"] as? [[String: Any]] ?? []
                    return entries.compactMap { ($0["date"] as? String).flatMap { try? Date($0, strategy: .iso8601) } }
                        .sorted()
                }
                let heights = try await dates("height")
                let weights = try await dates("weight")
                try #require(heights.count == 20 && weights.count == 30)
                // Heights 12 hours apart, weights a day apart, the newest height three years before the
                // newest weight (less the hour between the newest weight and now).
                #expect(zip(heights, heights.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 43_200 })
                #expect(zip(weights, weights.dropFirst()).allSatisfy { $1.timeIntervalSince($0) == 86_400 })
                let gap = try #require(weights.last).timeIntervalSince(try #require(heights.last))
                #expect(gap == Double(3 * 365 * 24 - 1) * 3_600)
            }
        }
    }

    /// A database in `folder` holding Ana's account and profile (`TestSupport`'s registration).
    private static func databaseWithAna(in folder: URL) async throws -> DevServerConfiguration.Storage {
        let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("dev.sqlite").path)
        try await TestSupport.withServer(TestSupport.configuration(storage: storage)) { api in
            let account = try await api.register()
            #expect(try await api.createProfile(account).status == .created)
        }
        return storage
    }

    /// The server started again on `storage` with `seed`, and Ana's token from it.
    private static func withSeeded(
        _ seed: DevServerConfiguration.SeedHistory, _ storage: DevServerConfiguration.Storage,
        _ body: @Sendable (API, String) async throws -> Void
    ) async throws {
        var seeded = TestSupport.configuration(storage: storage)
        seeded.seedHistory = seed
        try await TestSupport.withServer(seeded) { api in
            let login = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"ana@example.com","password":"correct horse"}"#)
            try await body(api, try #require(login.data["access_token"] as? String))
        }
    }

    @Test func tenYearsAtMostADayApartTheNewestAnHourAgo() {
        let now = Timestamp(milliseconds: 1_773_144_000_000)
        let few = HistorySeeder.spread(10, newestMsAgo: 3_600_000, now: now) { Double($0) }
        #expect(few.last?.0.milliseconds == now.milliseconds - 3_600_000)
        #expect(zip(few, few.dropFirst()).allSatisfy { $1.0.milliseconds - $0.0.milliseconds == 86_400_000 })
        #expect(HistorySeeder.productionStep(10_000, endingMsAgo: 0, now: now) == 43_200_000)
        // 100,000 heights would reach back to the 1880s: they begin in 1990 instead.
        let dense = HistorySeeder.productionStep(100_000, endingMsAgo: 0, now: now)
        #expect(dense < 43_200_000 && now.milliseconds - 100_000 * dense >= 631_152_000_000)
        let halfDays = HistorySeeder.spread(3, newestMsAgo: 1_000, step: 43_200_000, now: now) { Double($0) }
        #expect(halfDays.map(\.0.milliseconds) == [-86_401_000, -43_201_000, -1_000].map { now.milliseconds + $0 })
        let many = HistorySeeder.spread(100_000, newestMsAgo: 0, now: now) { _ in 80 }
        let span = (many.last?.0.milliseconds ?? 0) - (many.first?.0.milliseconds ?? 0)
        #expect(span <= Int64(10 * 365) * 86_400_000)
    }
}
