import FitIQCore
import Foundation
import Logging
import Testing

@testable import FitIQHTTP

/// Request building and response reading are pure functions: tested without a server.
struct WireFormatTests {
    func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A token that could not go into a header (a garbled answer) is refused at once, never stored: a
    /// stored one would make every later request fail before it is sent.
    @Test(arguments: ["eyJ.a\u{0}b.c", "eyJ.a b.c", "eyJ.a\nb.c", "eyJ.é.c"])
    func tokensThatCannotBeSentAreRefused(access: String) throws {
        let body = try JSONEncoder().encode(["access_token": access, "refresh_token": "r-1"])
        #expect(throws: WireResponses.Unreadable.self) { try WireResponses.tokens(body) }
        let good = try JSONEncoder().encode(["access_token": "eyJhbGciOi.eyJzdWIi_-.sig+/=", "refresh_token": "r-1"])
        #expect(try WireResponses.tokens(good).accessToken == "eyJhbGciOi.eyJzdWIi_-.sig+/=")
    }

    /// A stored token that cannot be sent is renewed, not retried forever, and never quoted; nothing
    /// is sent (the port here has no server: a request would fail as unreachable).
    @Test func aHeaderThatCannotBeSentIsARefusalThatNamesNoToken() async throws {
        let transport = HTTPTransport(
            server: try ServerAddress("http://127.0.0.1:9"), apiKey: "key",
            logger: Logger(label: "t", factory: { _ in SwiftLogNoOpLogHandler() }))
        for token in ["secret-token\u{0}", "secret\r\nX-Evil: 1", "sécret"] {
            do {
                _ = try await transport.send(.GET, "api/v1/users/me", bearer: token)
                Issue.record("sent \(token.debugDescription)")
            } catch {
                #expect(error == .unauthorized(message: "the stored access token cannot be sent"))
                #expect(!error.description.contains("secret"), "\(error)")
            }
        }
        #expect(HTTPTransport.canSend("eyJhbGciOi.eyJzdWIi_-.sig+/="))
        #expect(!HTTPTransport.canSend("a\nb") && !HTTPTransport.canSend("a\u{7F}"))
    }

    @Test func physicalBodiesHoldOnlyHeightAndSexAndNeverNull() throws {
        let heightOnly = String(decoding: WireRequests.physical(PhysicalPatch(heightCm: 180.34)), as: UTF8.self)
        #expect(heightOnly == #"{"height_cm":180.34}"#)
        let sexOnly = String(decoding: WireRequests.physical(PhysicalPatch(biologicalSex: .female)), as: UTF8.self)
        #expect(sexOnly == #"{"biological_sex":"female"}"#)
        #expect(!heightOnly.contains("null") && !heightOnly.contains("date_of_birth"))
    }

    @Test func profileBodiesAlwaysCarryNameAndUnitsAndOmitUnknownFields() throws {
        let minimal = try json(WireRequests.profile(ProfileMetadata(name: "Jane")))
        #expect(minimal.keys.sorted() == ["name", "preferred_unit_system"])
        let cleared = try json(
            WireRequests.profile(
                ProfileMetadata(name: "Jane", bio: "", preferredUnitSystem: .imperial, languageCode: "")))
        #expect(cleared["bio"] as? String == "")
        #expect(cleared["language_code"] as? String == "")
        #expect(cleared["preferred_unit_system"] as? String == "imperial")
    }

    @Test func progressBodiesUseRFC3339InUTC() throws {
        let entry = NewProgressEntry(
            type: "height", quantity: 180.5, loggedAt: Date(timeIntervalSince1970: 1_705_305_600), notes: nil)
        let body = try json(WireRequests.progress(entry))
        #expect(body["logged_at"] as? String == "2024-01-15T08:00:00Z")
        #expect(body["notes"] == nil)
        #expect(body["type"] as? String == "height")
    }

    @Test func registrationSendsTheCalendarDate() throws {
        let registration = Registration(
            email: "a@b.c", password: "pw", name: "A", dateOfBirth: try #require(CalendarDate(parsing: "1983-07-20")))
        #expect(try json(WireRequests.register(registration))["date_of_birth"] as? String == "1983-07-20")
    }

    @Test func readsTheNestedProductionProfile() throws {
        let body = Data(
            #"""
            {"data":{"id":"user-1","email":"m@x.io","profile":{"id":"prof-1","name":"Marcos","bio":null,
            "preferred_unit_system":"metric","language_code":"en","date_of_birth":"1983-07-20T00:00:00Z",
            "biological_sex":null,"height_cm":null,"created_at":"2025-01-27T10:00:00Z","updated_at":"2025-01-27T10:00:00Z",
            "surprise":{"new":"field"}}}}
            """#.utf8)
        let profile = try WireResponses.profile(body)
        #expect(profile.userId == "user-1")
        #expect(profile.profileId == "prof-1")
        #expect(profile.email == "m@x.io")
        #expect(
            profile.metadata
                == ProfileMetadata(name: "Marcos", bio: nil, preferredUnitSystem: .metric, languageCode: "en"))
        #expect(profile.dateOfBirth?.description == "1983-07-20")
        #expect(profile.heightCm == nil)
        #expect(profile.biologicalSex == nil)
    }

    @Test func readsTheWriteAnswerWithoutOptionalFields() throws {
        let body = Data(
            #"{"data":{"profile":{"id":"p","name":"Test User","preferred_unit_system":"metric","language_code":"en","biological_sex":"male","height_cm":175.5,"date_of_birth":"1990-01-01T00:00:00Z"}}}"#
                .utf8)
        let profile = try WireResponses.profile(body)
        #expect(profile.heightCm == 175.5)
        #expect(profile.biologicalSex == .male)
        #expect(profile.metadata.bio == nil)
        #expect(profile.updatedAt == nil)
    }

    @Test func readsTheSpecsFlatProfile() throws {
        let body = Data(
            #"{"data":{"id":"p","user_id":"u","name":"Flat","bio":"b","preferred_unit_system":"imperial","language_code":"pt-BR","date_of_birth":"1983-07-20","created_at":"2025-01-27T10:00:00.123Z"}}"#
                .utf8)
        let profile = try WireResponses.profile(body)
        #expect(profile.userId == "u")
        #expect(profile.profileId == "p")
        #expect(profile.metadata.preferredUnitSystem == .imperial)
        #expect(profile.dateOfBirth?.description == "1983-07-20")
        #expect(profile.createdAt != nil)
    }

    @Test(
        arguments: [
            ("180.5", 180.5), (#""180.5""#, 180.5), ("180", 180.0), ("true", nil), ("false", nil), (#""nan""#, nil),
            (#""inf""#, nil), ("null", nil), (#""tall""#, nil),
        ] as [(String, Double?)])
    func aQuantityIsANumberOrTextHoldingOneNeverABoolean(quantity: String, expected: Double?) throws {
        let body = Data(
            #"{"data":{"entries":[{"id":"e1","type":"height","quantity":\#(quantity),"date":"2024-01-15T08:00:00Z"}]}}"#
                .utf8)
        if let expected {
            #expect(try WireResponses.progressPage(body, query: ProgressQuery()).entries.first?.quantity == expected)
        } else {
            #expect(throws: WireResponses.Unreadable.self) {
                try WireResponses.progressPage(body, query: ProgressQuery())
            }
        }
    }

    @Test(arguments: [
        "<html><body>502 Bad Gateway</body></html>", "", "null", "[1,2]", #"{"data":{"bio":"no name"}}"#,
        #"{"data":{"name":42}}"#,
    ])
    func garbageBodiesAreUnreadableNotACrash(text: String) {
        #expect(throws: WireResponses.Unreadable.self) { try WireResponses.profile(Data(text.utf8)) }
    }

    @Test func readsProgressPagesAndEntries() throws {
        let body = Data(
            #"{"data":{"entries":[{"id":"e1","type":"height","quantity":180.5,"date":"2024-01-15T08:00:00Z"}],"total":250,"limit":100,"offset":100}}"#
                .utf8)
        let page = try WireResponses.progressPage(body, query: ProgressQuery(limit: 100, offset: 100))
        #expect(page.total == 250)
        #expect(page.entries.first?.loggedAt == Date(timeIntervalSince1970: 1_705_305_600))
        #expect(throws: WireResponses.Unreadable.self) {
            try WireResponses.progressPage(Data(#"{"data":{"entries":[{"id":"e"}]}}"#.utf8), query: ProgressQuery())
        }
    }

    @Test(arguments: [
        (
            401, #"{"error":{"message":"Invalid authentication"}}"#,
            RemoteError.unauthorized(message: "Invalid authentication")
        ),
        (404, "404 page not found", .notFound(message: "404 page not found")),
        (409, #"{"error":{"message":"exists"}}"#, .conflict(message: "exists")),
        (
            400, #"{"error":{"message":"Invalid request payload","code":"X"}}"#,
            .rejected(status: 400, message: "Invalid request payload")
        ),
        (
            503, "<!DOCTYPE html><html>down</html>",
            .unavailable(status: 503, message: "HTTP 503 (an HTML page, probably from a proxy)")
        ),
        (429, "", .unavailable(status: 429, message: "HTTP 429")),
        (
            400, #"{"error":{"message":"bad \u001b]0;pwned\u0007 input"}}"#,
            .rejected(status: 400, message: "bad  input")
        ),
    ])
    func classifiesErrorAnswersWithTheServersMessage(status: Int, body: String, expected: RemoteError) {
        #expect(HTTPTransport.classify(status: status, body: Data(body.utf8), contentType: nil) == expected)
    }

    @Test(arguments: [
        ("https://api.fitiq.example", true), ("http://127.0.0.1:8080", true), ("http://localhost:9", true),
        ("http://[::1]:8080/", true), ("http://api.fitiq.example", false), ("http://10.0.0.2", false),
        ("ftp://x", false), ("not a url", false), ("https://", false),
    ])
    func plainHTTPOnlyToLoopback(text: String, accepted: Bool) {
        #expect(((try? ServerAddress(text)) != nil) == accepted)
    }

    @Test func insecureHTTPNeedsTheFlagAndSaysWhy() throws {
        #expect {
            try ServerAddress("http://api.fitiq.example")
        } throws: { String(describing: $0).contains("--allow-insecure-http") }
        #expect(try ServerAddress("http://api.fitiq.example", allowInsecureHTTP: true).url.host == "api.fitiq.example")
        #expect(try ServerAddress("https://api.fitiq.example/").description == "https://api.fitiq.example")
    }
}
