import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer

struct ProfileTests {
    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func profileCallsAnswer404BeforeTheProfileExists(shape: DevServerConfiguration.ResponseShape) async throws {
        try await TestSupport.withServer(TestSupport.configuration(shape: shape)) { api in
            let account = try await api.register()
            let token = account.accessToken
            let calls: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/api/v1/users/me", nil),
                (.put, "/api/v1/users/me", #"{"name":"Ana","preferred_unit_system":"metric"}"#),
                (.patch, "/api/v1/users/me/physical", #"{"height_cm":170}"#),
            ]
            for (method, path, body) in calls {
                let reply = try await api.send(method, path, token: token, body: body)
                #expect(reply.status == .notFound, "\(method) \(path)")
                #expect(reply.errorMessage == "User profile not found")
            }
        }
    }

    @Test func realShapeNestsTheProfileUnderTheUser() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register(email: "ana@example.com", dateOfBirth: "1983-07-19")
            let created = try await api.createProfile(account)
            #expect(created.status == .created)
            let createdProfile = try #require(created.data["profile"] as? [String: Any])
            #expect(created.data.keys.sorted() == ["profile"])
            #expect(createdProfile["user_id"] as? String == account.userID)

            let reply = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            #expect(reply.status == .ok)
            #expect(reply.data.keys.sorted() == ["email", "id", "profile"])
            #expect(reply.data["id"] as? String == account.userID)
            #expect(reply.data["email"] as? String == "ana@example.com")
            let profile = try #require(reply.data["profile"] as? [String: Any])
            #expect(
                profile.keys.sorted() == [
                    "bio", "biological_sex", "created_at", "date_of_birth", "height_cm", "id", "language_code", "name",
                    "preferred_unit_system", "updated_at",
                ])
            #expect(profile["id"] as? String != account.userID)
            #expect(profile["id"] as? String == createdProfile["id"] as? String)
            #expect(profile["date_of_birth"] as? String == "1983-07-19T00:00:00Z")
            #expect(profile["bio"] is NSNull)
            #expect(profile["biological_sex"] is NSNull)
            #expect(profile["height_cm"] is NSNull)
            #expect(profile["language_code"] is NSNull)
        }
    }

    @Test func specShapeIsTheFlatDocumentedObject() async throws {
        try await TestSupport.withServer(TestSupport.configuration(shape: .spec)) { api in
            let account = try await api.register(dateOfBirth: "1983-07-19")
            let created = try await api.createProfile(account)
            #expect(created.status == .created)
            #expect(created.data["user_id"] as? String == account.userID)
            let patched = try await api.send(
                .patch, "/api/v1/users/me/physical", token: account.accessToken, body: #"{"height_cm":170}"#)
            let flatKeys = [
                "created_at", "date_of_birth", "id", "name", "preferred_unit_system", "updated_at", "user_id",
            ]
            #expect(patched.data.keys.sorted() == flatKeys)
            let put = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"Ana","preferred_unit_system":"metric","bio":"Hi"}"#)
            #expect(put.data.keys.sorted() == ["bio"] + flatKeys)
            let reply = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            #expect(reply.data.keys.sorted() == ["bio"] + flatKeys)
            #expect(reply.data["date_of_birth"] as? String == "1983-07-19")
            #expect(reply.data["user_id"] as? String == account.userID)
        }
    }

    @Test func secondCreateIsAConflict() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            #expect(try await api.createProfile(account).status == .created)
            let again = try await api.createProfile(account)
            #expect(again.status == .conflict)
        }
    }

    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func registrationCanCreateTheProfile(shape: DevServerConfiguration.ResponseShape) async throws {
        let configuration = TestSupport.configuration(shape: shape, registerCreatesProfile: true)
        try await TestSupport.withServer(configuration) { api in
            let account = try await api.register(name: "Ana Lima")
            let reply = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            #expect(reply.status == .ok)
            let profile = shape == .real ? reply.data["profile"] as? [String: Any] : reply.data
            #expect(profile?["name"] as? String == "Ana Lima")
            #expect(profile?["preferred_unit_system"] as? String == "metric")
            #expect(profile?["language_code"] as? String == "en")
            #expect(try await api.createProfile(account).status == .conflict)
        }
    }

    @Test(arguments: [
        (#"{"preferred_unit_system":"metric"}"#, "Name is required"),
        (#"{"name":"   ","preferred_unit_system":"metric"}"#, "Name is required"),
        (#"{"name":"Ana"}"#, "Preferred unit system is required"),
        (#"{"name":"Ana","preferred_unit_system":"furlongs"}"#, "Preferred unit system must be 'metric' or 'imperial'"),
        (#"{"name":"Ana","preferred_unit_system":"metric","bio":null}"#, "Invalid request payload"),
        (#"{"name":null,"preferred_unit_system":"metric"}"#, "Invalid request payload"),
        (#"{"name":42,"preferred_unit_system":"metric"}"#, "Invalid request payload"),
        (#"{"name":"Ana","preferred_unit_system":"metric","language_code":"english!"}"#, "Invalid language code"),
    ])
    func metadataWritesValidateTheirBody(body: String, message: String) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let created = try await api.send(.post, "/api/v1/users/me", token: account.accessToken, body: body)
            #expect(created.status == .badRequest)
            #expect(created.errorMessage == message)
            _ = try await api.createProfile(account)
            let updated = try await api.send(.put, "/api/v1/users/me", token: account.accessToken, body: body)
            #expect(updated.status == .badRequest)
            #expect(updated.errorMessage == message)
        }
    }

    @Test func bioAndNameHaveLimits() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            _ = try await api.createProfile(account)
            let longName = String(repeating: "a", count: 101)
            let name = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"\#(longName)","preferred_unit_system":"metric"}"#)
            #expect(name.status == .badRequest)
            let longBio = String(repeating: "é", count: 501)
            let bio = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"Ana","preferred_unit_system":"metric","bio":"\#(longBio)"}"#)
            #expect(bio.status == .badRequest)
        }
    }

    @Test func putReplacesMetadataAndAnswersUnderProfile() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            _ = try await api.createProfile(account)
            let reply = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"Ana Maria","preferred_unit_system":"imperial","bio":"Runner","language_code":"pt-BR"}"#
            )
            #expect(reply.status == .ok)
            let profile = try #require(reply.data["profile"] as? [String: Any])
            #expect(profile["name"] as? String == "Ana Maria")
            #expect(profile["preferred_unit_system"] as? String == "imperial")
            #expect(profile["bio"] as? String == "Runner")
            #expect(profile["language_code"] as? String == "pt-BR")
            // Clearing sends "", and an absent optional key keeps the stored value.
            let cleared = try await api.send(
                .put, "/api/v1/users/me", token: account.accessToken,
                body: #"{"name":"Ana Maria","preferred_unit_system":"imperial","bio":""}"#)
            let clearedProfile = try #require(cleared.data["profile"] as? [String: Any])
            #expect(clearedProfile["bio"] as? String == "")
            #expect(clearedProfile["language_code"] as? String == "pt-BR")
        }
    }

    /// Bodies production refuses as a payload (with its words), and values out of their range.
    @Test(arguments: [
        (#"{"date_of_birth":"1983-07-19"}"#, "Invalid request payload"),
        (#"{"height_cm":170,"biological_sex":"male","date_of_birth":"1983-07-20"}"#, "Invalid request payload"),
        (#"{"biological_sex":null,"height_cm":null,"date_of_birth":"1983-07-19"}"#, "Invalid request payload"),
        (#"{"height_cm":null}"#, "Invalid request payload"),
        (#"{"height_cm":170,"biological_sex":null}"#, "Invalid request payload"),
        ("{}", "Invalid request payload"),
        (#"{"bio":"only unrelated keys"}"#, "Invalid request payload"),
        (#"{"height_cm":"170"}"#, "Invalid request payload"),
        (#"{"biological_sex":"unknown"}"#, nil),
        (#"{"height_cm":12}"#, nil),
        (#"{"height_cm":301}"#, nil),
    ])
    func physicalPatchRejectsWhatProductionRejects(body: String, message: String?) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            _ = try await api.createProfile(account)
            let reply = try await api.send(.patch, "/api/v1/users/me/physical", token: account.accessToken, body: body)
            #expect(reply.status == .badRequest)
            if let message { #expect(reply.errorMessage == message) }
        }
    }

    @Test func realPhysicalAnswerLeavesOutFieldsProductionOmits() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register(dateOfBirth: "1990-01-01")
            _ = try await api.createProfile(account)
            let reply = try await api.send(
                .patch, "/api/v1/users/me/physical", token: account.accessToken,
                body: #"{"biological_sex":"male","height_cm":175.5}"#)
            #expect(reply.status == .ok)
            let profile = try #require(reply.data["profile"] as? [String: Any])
            #expect(
                profile.keys.sorted() == [
                    "biological_sex", "date_of_birth", "height_cm", "id", "language_code", "name",
                    "preferred_unit_system",
                ])
            #expect(profile["height_cm"] as? Double == 175.5)
            #expect(profile["date_of_birth"] as? String == "1990-01-01T00:00:00Z")
            // Only one field: the other keeps its value.
            _ = try await api.send(
                .patch, "/api/v1/users/me/physical", token: account.accessToken, body: #"{"height_cm":176}"#)
            let read = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            let stored = try #require(read.data["profile"] as? [String: Any])
            #expect(stored["biological_sex"] as? String == "male")
            #expect(stored["height_cm"] as? Double == 176)
        }
    }

    @Test func deletingTheAccountErasesEverythingOfThatUserOnly() async throws {
        try await TestSupport.withServer { api in
            // Given two accounts with profiles and progress
            let ana = try await api.register(email: "ana@example.com")
            let bob = try await api.register(email: "bob@example.com")
            for account in [ana, bob] {
                _ = try await api.createProfile(account)
                _ = try await api.send(
                    .post, "/api/v1/progress", token: account.accessToken, body: #"{"type":"weight","quantity":70}"#)
            }
            // When Ana erases her account
            let erased = try await api.send(.delete, "/api/v1/users/me", token: ana.accessToken)
            #expect(erased.status == .noContent)
            #expect(erased.text.isEmpty)
            // Then her tokens and password are dead, and Bob keeps his data
            #expect(try await api.send(.get, "/api/v1/users/me", token: ana.accessToken).status == .unauthorized)
            let login = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"ana@example.com","password":"correct horse"}"#)
            #expect(login.status == .unauthorized)
            let refresh = try await api.send(
                .post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(ana.refreshToken)"}"#)
            #expect(refresh.errorMessage == "invalid refresh token")
            let bobs = try await api.send(.get, "/api/v1/progress", token: bob.accessToken)
            #expect(bobs.data["total"] as? Int == 1)
            // And the email can register again
            _ = try await api.register(email: "ana@example.com")
        }
    }
}
