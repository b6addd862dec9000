import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer

/// The full client journey over a live port, in both shapes.
struct LiveFlowTests {
    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func registerProfileAndProgressFlow(shape: DevServerConfiguration.ResponseShape) async throws {
        try await TestSupport.withServer(TestSupport.configuration(shape: shape)) { api in
            // Register, then the profile is missing until POST /users/me
            let account = try await api.register(email: "flow@example.com", dateOfBirth: "1983-07-19")
            #expect(try await api.send(.get, "/api/v1/users/me", token: account.accessToken).status == .notFound)
            let created = try await api.createProfile(account, name: "Flow User")
            #expect(created.status == .created)

            // PUT metadata
            let put = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"Flow User","preferred_unit_system":"imperial","bio":"Hi","language_code":"en"}"#)
            #expect(put.status == .ok)
            let putProfile = shape == .real ? put.data["profile"] as? [String: Any] : put.data
            #expect(putProfile?["preferred_unit_system"] as? String == "imperial")

            // PATCH physical
            let patch = try await api.send(
                .patch, "/api/v1/users/me/physical", token: account.accessToken,
                body: #"{"height_cm":180.5,"biological_sex":"female"}"#)
            #expect(patch.status == .ok)

            // GET shows everything in the configured shape
            let read = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            #expect(read.status == .ok)
            switch shape {
            case .real:
                let profile = try #require(read.data["profile"] as? [String: Any])
                #expect(read.data["id"] as? String == account.userID)
                #expect(profile["height_cm"] as? Double == 180.5)
                #expect(profile["biological_sex"] as? String == "female")
                #expect(profile["bio"] as? String == "Hi")
                #expect(profile["date_of_birth"] as? String == "1983-07-19T00:00:00Z")
            case .spec:
                #expect(read.data["user_id"] as? String == account.userID)
                #expect(read.data["height_cm"] == nil)
                #expect(read.data["bio"] as? String == "Hi")
                #expect(read.data["date_of_birth"] as? String == "1983-07-19")
            }

            // POST and GET progress
            let posted = try await api.send(
                .post, "/api/v1/progress", token: account.accessToken,
                body: #"{"type":"height","quantity":180.5,"logged_at":"2026-03-10T09:00:00Z","notes":"tape"}"#)
            #expect(posted.status == .created)
            let list = try await api.send(
                .get, "/api/v1/progress?type=height&from=2026-01-01&to=2026-03-10", token: account.accessToken)
            #expect(list.status == .ok)
            let entries = list.data["entries"] as? [[String: Any]] ?? []
            #expect(entries.count == 1)
            #expect(entries.first?["id"] as? String == posted.data["id"] as? String)
            #expect(entries.first?["notes"] as? String == "tape")
        }
    }

    @Test func restartWithTheSameDatabaseAndSecretKeepsDataAndTokens() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = DevServerConfiguration.Storage.file(path: folder.appendingPathComponent("db.sqlite").path)
            let configuration = TestSupport.configuration(storage: storage)
            let account = try await TestSupport.withServer(configuration) { api in
                let account = try await api.register()
                _ = try await api.createProfile(account)
                return account
            }
            try await TestSupport.withServer(configuration) { api in
                let reply = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
                #expect(reply.status == .ok)
            }
        }
    }
}
