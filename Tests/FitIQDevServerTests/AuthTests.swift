import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer

struct AuthTests {
    @Test func registerAnswersTheDocumentedFields() async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(
                .post, "/api/v1/auth/register",
                body:
                    #"{"email":"Ana@Example.com","password":"correct horse","name":"Ana","date_of_birth":"1983-07-19"}"#
            )
            #expect(reply.status == .created)
            #expect(
                reply.data.keys.sorted() == ["access_token", "created_at", "email", "name", "refresh_token", "user_id"])
            #expect(reply.data["email"] as? String == "Ana@Example.com")
            #expect(UUID(uuidString: reply.data["user_id"] as? String ?? "") != nil)
            #expect(reply.data["created_at"] as? String == "2026-03-10T12:00:00Z")
        }
    }

    @Test(arguments: [
        (#"{"password":"correct horse","name":"A","date_of_birth":"1990-01-01"}"#, "Email is required"),
        (#"{"email":"a@b.co","name":"A","date_of_birth":"1990-01-01"}"#, "Password is required"),
        (#"{"email":"a@b.co","password":"correct horse","date_of_birth":"1990-01-01"}"#, "Name is required"),
        (#"{"email":"a@b.co","password":"correct horse","name":"A"}"#, "Date of birth is required"),
        (#"{"email":"a@b.co","password":"correct horse","name":"A","date_of_birth":null}"#, "Invalid request payload"),
        (
            #"{"email":"a@b.co","password":"correct horse","name":"A","date_of_birth":"1990-02-30"}"#,
            "Invalid date of birth format, expected YYYY-MM-DD"
        ),
        (
            #"{"email":"nope","password":"correct horse","name":"A","date_of_birth":"1990-01-01"}"#,
            "Invalid email format"
        ),
        (
            #"{"email":"a@b.co","password":"short","name":"A","date_of_birth":"1990-01-01"}"#,
            "Password must be at least 8 characters long"
        ),
        (
            #"{"email":"a@b.co","password":"correct horse","name":"A","date_of_birth":"2016-03-11"}"#,
            "User must be at least 13 years old (COPPA compliance). Age: 9 years"
        ),
        (
            #"{"email":"a@b.co","password":"correct horse","name":"A","date_of_birth":"2013-03-11"}"#,
            "User must be at least 13 years old (COPPA compliance). Age: 12 years"
        ),
        (
            #"{"email":"a@b.co","password":"correct horse","name":"A","date_of_birth":"2026-03-11"}"#,
            "Date of birth cannot be in the future"
        ),
        ("[1,2]", "Invalid request payload"),
        ("not json", "Invalid request payload"),
    ])
    func registerRejectsInvalidBodies(body: String, message: String) async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.post, "/api/v1/auth/register", body: body)
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage == message)
        }
    }

    @Test func registerAcceptsThirteenthBirthdayToday() async throws {
        try await TestSupport.withServer { api in
            _ = try await api.register(dateOfBirth: "2013-03-10")
        }
    }

    @Test func registerTakesTheDatePartOfATimestampAsWritten() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register(dateOfBirth: "1990-05-15T23:30:00-05:00")
            _ = try await api.createProfile(account)
            let profile = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            let nested = profile.data["profile"] as? [String: Any]
            #expect(nested?["date_of_birth"] as? String == "1990-05-15T00:00:00Z")
        }
    }

    @Test func duplicateEmailIsAConflictInAnyCase() async throws {
        try await TestSupport.withServer { api in
            _ = try await api.register(email: "ana@example.com")
            let reply = try await api.send(
                .post, "/api/v1/auth/register",
                body: #"{"email":"ANA@example.COM","password":"correct horse","name":"A","date_of_birth":"1990-01-01"}"#
            )
            #expect(reply.status == .conflict)
            #expect(reply.errorMessage == "User with this email already exists")
        }
    }

    @Test func loginReturnsAPairAndRejectsWrongPasswords() async throws {
        try await TestSupport.withServer { api in
            _ = try await api.register()
            let ok = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"ANA@example.com","password":"correct horse"}"#)
            #expect(ok.status == .ok)
            #expect(ok.data.keys.sorted() == ["access_token", "refresh_token"])
            let wrong = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"ana@example.com","password":"battery staple"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorMessage == "Invalid email or password")
            let unknown = try await api.send(
                .post, "/api/v1/auth/login", body: #"{"email":"bob@example.com","password":"correct horse"}"#)
            #expect(unknown.status == .unauthorized)
        }
    }

    @Test(arguments: ["{}", "[]", "garbage", #"{"email":null,"password":"x"}"#, #"{"email":1,"password":"x"}"#])
    func malformedLoginIsUnauthorizedBecauseThatIsTheOnlyDocumentedFailure(body: String) async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.post, "/api/v1/auth/login", body: body)
            #expect(reply.status == .unauthorized)
        }
    }

    @Test func accessTokenCarriesTheContractClaims() async throws {
        try await TestSupport.withServer(TestSupport.configuration(accessTokenTTL: 900)) { api in
            let account = try await api.register(email: "ana@example.com")
            let segments = account.accessToken.split(separator: ".")
            #expect(segments.count == 3)
            var payload = String(segments[1]).replacingOccurrences(of: "-", with: "+")
                .replacingOccurrences(of: "_", with: "/")
            while payload.count % 4 != 0 { payload += "=" }
            let data = try #require(Data(base64Encoded: payload))
            let object = try JSONSerialization.jsonObject(with: data)
            let claims = try #require(object as? [String: Any])
            #expect(claims["sub"] as? String == account.userID)
            #expect(claims["email"] as? String == "ana@example.com")
            let issuedAt = try #require(claims["iat"] as? Int)
            #expect(issuedAt == Int(TestSupport.fixedNow.timeIntervalSince1970))
            #expect(claims["exp"] as? Int == issuedAt + 900)
        }
    }

    @Test func expiredAccessTokenIsInvalidAuthentication() async throws {
        let clock = TestSupport.clock()
        try await TestSupport.withServer(TestSupport.configuration(accessTokenTTL: 1), clock: clock) { api in
            // Given a token that lives one second
            let account = try await api.register()
            _ = try await api.createProfile(account)
            #expect(try await api.send(.get, "/api/v1/users/me", token: account.accessToken).status == .ok)
            // When the clock passes its expiry
            clock.advance(by: .seconds(1))
            // Then protected calls answer 401 "Invalid authentication", and a refresh heals it
            let expired = try await api.send(.get, "/api/v1/users/me", token: account.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorMessage == "Invalid authentication")
            let refreshed = try await api.send(
                .post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(account.refreshToken)"}"#)
            let access = try #require(refreshed.data["access_token"] as? String)
            #expect(try await api.send(.get, "/api/v1/users/me", token: access).status == .ok)
        }
    }

    @Test func refreshRotatesAndRevokesTheSpentToken() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let first = try await api.send(
                .post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(account.refreshToken)"}"#)
            #expect(first.status == .ok)
            let next = try #require(first.data["refresh_token"] as? String)
            #expect(next != account.refreshToken)
            #expect(first.data["access_token"] is String)

            let reused = try await api.send(
                .post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(account.refreshToken)"}"#)
            #expect(reused.status == .unauthorized)
            #expect(reused.errorMessage == "refresh token has been revoked")

            let second = try await api.send(.post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(next)"}"#)
            #expect(second.status == .ok)
        }
    }

    @Test(arguments: [#"{"refresh_token":"never-issued"}"#, "{}", #"{"refresh_token":null}"#, "nonsense"])
    func unknownOrMalformedRefreshIsInvalid(body: String) async throws {
        try await TestSupport.withServer { api in
            let reply = try await api.send(.post, "/api/v1/auth/refresh", body: body)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorMessage == "invalid refresh token")
        }
    }

    @Test func expiredRefreshTokenIsRejected() async throws {
        let clock = TestSupport.clock()
        try await TestSupport.withServer(clock: clock) { api in
            let account = try await api.register()
            clock.advance(by: .seconds(31 * 24 * 3600))
            let reply = try await api.send(
                .post, "/api/v1/auth/refresh", body: #"{"refresh_token":"\#(account.refreshToken)"}"#)
            #expect(reply.status == .unauthorized)
            #expect(reply.errorMessage == "refresh token has expired")
        }
    }
}
