import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer

struct DemoSeederTests {
    /// Signs in as the demo account; its access token.
    private func demoToken(_ api: API, password: String) async throws -> String {
        let login = try await api.send(
            .post, "/api/v1/auth/login", body: #"{"email":"demo@fitiq.dev","password":"\#(password)"}"#)
        return try #require(login.data["access_token"] as? String)
    }

    @Test func demoAccountHasAProfileAndAYearOfWeeklyHeights() async throws {
        let configuration = TestSupport.configuration(demoPassword: "demo password")
        try await TestSupport.withServer(configuration) { api in
            let token = try await demoToken(api, password: "demo password")
            let me = try await api.send(.get, "/api/v1/users/me", token: token)
            let profile = try #require(me.data["profile"] as? [String: Any])
            #expect(profile["name"] as? String == "Alex Demo")
            #expect(profile["date_of_birth"] as? String == "1990-04-12T00:00:00Z")
            #expect(profile["height_cm"] as? Double == 178.0)
            #expect(profile["preferred_unit_system"] as? String == "metric")
            #expect(profile["language_code"] as? String == "en")
            #expect(profile["bio"] as? String != nil)

            let history = try await api.send(
                .get, "/api/v1/progress?type=height&from=2025-03-01&to=2026-03-10&limit=100", token: token)
            let entries = history.data["entries"] as? [[String: Any]] ?? []
            #expect(entries.count == 53)
            #expect(entries.first?["date"] as? String == "2026-03-10T08:00:00Z")
            #expect(entries.first?["quantity"] as? Double == 178.0)
            let heights = entries.compactMap { $0["quantity"] as? Double }
            #expect(heights.allSatisfy { abs($0 - 178.0) <= 0.5 })
        }
    }

    @Test func aYearOfWeightsTrendsDownWithNoiseAndBodyFatComesMonthly() throws {
        let today = try #require(CalendarDate(year: 2026, month: 3, day: 10))
        let weights = DemoSeeder.weightHistory(userID: "u", today: today)
        // About five mornings in seven, and today's.
        #expect((230...290).contains(weights.count), "\(weights.count)")
        #expect(weights.allSatisfy { $0.type == "weight" && (77.5...85.0).contains($0.quantity) })
        let newest = try #require(weights.max { $0.loggedAt.milliseconds < $1.loggedAt.milliseconds })
        #expect(newest.quantity == DemoSeeder.currentWeight)
        // A trend under the noise: the first month averages well above the last.
        let byTime = weights.sorted { $0.loggedAt.milliseconds < $1.loggedAt.milliseconds }
        func mean(_ records: ArraySlice<ProgressRecord>) -> Double {
            records.map(\.quantity).reduce(0, +) / Double(records.count)
        }
        #expect(mean(byTime.prefix(20)) - mean(byTime.suffix(20)) > 4.5)
        // Day to day it moves, as a scale's readings do.
        let steps = zip(byTime, byTime.dropFirst()).map { abs($0.quantity - $1.quantity) }
        #expect(steps.contains { $0 >= 0.5 } && steps.allSatisfy { $0 <= 1.5 })

        let bodyFat = DemoSeeder.bodyFatHistory(userID: "u", today: today)
        #expect(bodyFat.count == 13)
        #expect(bodyFat.allSatisfy { $0.type == "body_fat_percentage" && (20.5...24.5).contains($0.quantity) })
        #expect(bodyFat.max { $0.loggedAt.milliseconds < $1.loggedAt.milliseconds }?.quantity == 21.0)
        // The same data every time: the demo looks the same on every machine.
        #expect(DemoSeeder.weightHistory(userID: "u", today: today).map(\.quantity) == weights.map(\.quantity))
    }

    @Test func theDemoServerListsTheWeightsAndBodyFat() async throws {
        let configuration = TestSupport.configuration(demoPassword: "demo password")
        try await TestSupport.withServer(configuration) { api in
            let token = try await demoToken(api, password: "demo password")
            let weights = try await api.send(
                .get, "/api/v1/progress?type=weight&from=2025-03-01&to=2026-03-10&limit=5", token: token)
            #expect((230...290).contains(weights.data["total"] as? Int ?? 0))
            let newest = (weights.data["entries"] as? [[String: Any]])?.first
            #expect(newest?["quantity"] as? Double == 78.5)
            #expect((newest?["date"] as? String)?.hasPrefix("2026-03-10T07:") == true)
            let bodyFat = try await api.send(
                .get, "/api/v1/progress?type=body_fat_percentage&from=2025-03-01&to=2026-03-10&limit=5", token: token)
            #expect(bodyFat.data["total"] as? Int == 13)
        }
    }

    @Test func seedingTwiceKeepsOneAccountAndTakesTheNewPassword() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("db.sqlite").path)
            try await TestSupport.withServer(TestSupport.configuration(storage: storage, demoPassword: "first pass")) {
                _ in
            }
            let second = TestSupport.configuration(storage: storage, demoPassword: "second pass")
            try await TestSupport.withServer(second) { api in
                let token = try await demoToken(api, password: "second pass")
                let history = try await api.send(
                    .get, "/api/v1/progress?type=height&from=2025-01-01&to=2026-12-31&limit=100", token: token)
                #expect(history.data["total"] as? Int == 53)
            }
        }
    }
}
