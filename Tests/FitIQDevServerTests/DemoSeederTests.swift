import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import FitIQDevServer

struct DemoSeederTests {
    @Test func demoAccountHasAProfileAndAYearOfWeeklyHeights() async throws {
        let configuration = TestSupport.configuration(demoPassword: "demo password")
        try await TestSupport.withServer(configuration) { api in
            let login = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"demo@fitiq.dev","password":"demo password"}"#)
            let token = try #require(login.data["access_token"] as? String)
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

    @Test func seedingTwiceKeepsOneAccountAndTakesTheNewPassword() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("db.sqlite").path)
            try await TestSupport.withServer(TestSupport.configuration(storage: storage, demoPassword: "first pass")) {
                _ in
            }
            let second = TestSupport.configuration(storage: storage, demoPassword: "second pass")
            try await TestSupport.withServer(second) { api in
                let login = try await api.send(
                    .post, "/api/v1/auth/login", body: #"{"email":"demo@fitiq.dev","password":"second pass"}"#)
                let token = try #require(login.data["access_token"] as? String)
                let history = try await api.send(
                    .get, "/api/v1/progress?type=height&from=2025-01-01&to=2026-12-31&limit=100", token: token)
                #expect(history.data["total"] as? Int == 53)
            }
        }
    }
}
