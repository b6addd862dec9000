import Foundation
import Hummingbird
import Testing

@testable import FitIQDevServer

struct ProgressTests {
    /// Posts an entry and returns the answer.
    func log(_ api: API, _ account: Account, _ body: String) async throws -> Reply {
        try await api.send(.post, "/api/v1/progress", token: account.accessToken, body: body)
    }

    @Test func postAnswersTheRecordedShape() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await log(
                api, account,
                #"{"type":"weight","quantity":75.5,"logged_at":"2024-01-15T10:00:00+02:00","notes":"Morning"}"#)
            #expect(reply.status == .created)
            #expect(reply.data.keys.sorted() == ["date", "id", "notes", "quantity", "type"])
            #expect(reply.data["date"] as? String == "2024-01-15T08:00:00Z")
            #expect(reply.data["quantity"] as? Double == 75.5)
            #expect(UUID(uuidString: reply.data["id"] as? String ?? "") != nil)
        }
    }

    @Test func loggedAtDefaultsToNowAndNotesAreLeftOutWhenAbsent() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await log(api, account, #"{"type":"steps","quantity":8500}"#)
            #expect(reply.status == .created)
            #expect(reply.data["date"] as? String == "2026-03-10T12:00:00Z")
            #expect(reply.data["notes"] == nil)
        }
    }

    @Test(arguments: [
        (#"{"quantity":1}"#, "Type is required"),
        (#"{"type":"weight"}"#, "Quantity is required"),
        (#"{"type":"happiness","quantity":1}"#, "Invalid progress type: happiness"),
        (#"{"type":"weight","quantity":-0.5}"#, "Quantity must be zero or greater"),
        (#"{"type":"weight","quantity":"75"}"#, "Invalid request payload"),
        (#"{"type":"weight","quantity":75,"notes":null}"#, "Invalid request payload"),
        (
            #"{"type":"weight","quantity":75,"logged_at":"2024-01-15"}"#,
            "logged_at must be an RFC 3339 timestamp such as 2024-01-15T08:00:00Z"
        ),
        (
            #"{"type":"weight","quantity":75,"notes":"\#(String(repeating: "n", count: 501))"}"#,
            "Notes must be at most 500 characters"
        ),
    ])
    func postValidatesTheBody(body: String, message: String) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await log(api, account, body)
            #expect(reply.status == .badRequest)
            #expect(reply.errorMessage == message)
        }
    }

    @Test func notesOfExactly500CharactersAreAccepted() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let notes = String(repeating: "👍🏽", count: 500)
            let reply = try await log(api, account, #"{"type":"weight","quantity":75,"notes":"\#(notes)"}"#)
            #expect(reply.status == .created)
        }
    }

    @Test func defaultWindowIsTheLast30DaysEndingToday() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            // Today is 2026-03-10; the window starts on 2026-02-08.
            for instant in [
                "2026-02-07T23:59:59Z", "2026-02-08T00:00:00Z", "2026-03-10T23:59:59Z", "2026-03-11T00:00:00Z",
            ] {
                _ = try await log(api, account, #"{"type":"height","quantity":170,"logged_at":"\#(instant)"}"#)
            }
            let reply = try await api.send(.get, "/api/v1/progress", token: account.accessToken)
            #expect(reply.status == .ok)
            let dates = (reply.data["entries"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
            #expect(dates == ["2026-03-10T23:59:59Z", "2026-02-08T00:00:00Z"])
            #expect(reply.data["total"] as? Int == 2)
            #expect(reply.data["limit"] as? Int == 20)
            #expect(reply.data["offset"] as? Int == 0)
        }
    }

    @Test func explicitRangeIsInclusiveAndFiltersByType() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            for (type, instant) in [
                ("height", "2024-12-31T23:59:59Z"), ("height", "2025-01-01T00:00:00Z"),
                ("weight", "2025-01-02T00:00:00Z"),
                ("height", "2025-01-31T23:59:59.250Z"), ("height", "2025-02-01T00:00:00Z"),
            ] {
                _ = try await log(api, account, #"{"type":"\#(type)","quantity":1,"logged_at":"\#(instant)"}"#)
            }
            let reply = try await api.send(
                .get, "/api/v1/progress?type=height&from=2025-01-01&to=2025-01-31", token: account.accessToken)
            let dates = (reply.data["entries"] as? [[String: Any]] ?? []).compactMap { $0["date"] as? String }
            #expect(dates == ["2025-01-31T23:59:59.250Z", "2025-01-01T00:00:00Z"])
        }
    }

    @Test func pagesNewestFirstWithTotals() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            for day in 1...25 {
                let date = "2026-03-" + (day < 10 ? "0\(day)" : "\(day)")
                _ = try await log(
                    api, account, #"{"type":"height","quantity":\#(day),"logged_at":"\#(date)T08:00:00Z"}"#)
            }
            let query = "/api/v1/progress?from=2026-03-01&to=2026-03-31"
            let first = try await api.send(.get, query + "&limit=10", token: account.accessToken)
            let quantities = (first.data["entries"] as? [[String: Any]] ?? []).compactMap { $0["quantity"] as? Int }
            #expect(quantities == Array((16...25).reversed()))
            #expect(first.data["total"] as? Int == 25)
            let last = try await api.send(.get, query + "&limit=10&offset=20", token: account.accessToken)
            let rest = (last.data["entries"] as? [[String: Any]] ?? []).compactMap { $0["quantity"] as? Int }
            #expect(rest == [5, 4, 3, 2, 1])
            #expect(last.data["offset"] as? Int == 20)
        }
    }

    @Test(arguments: [("0", 1), ("-3", 1), ("101", 100), ("5000", 100), ("7", 7)])
    func limitIsClampedToTheDocumentedRange(limit: String, applied: Int) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await api.send(.get, "/api/v1/progress?limit=\(limit)", token: account.accessToken)
            #expect(reply.status == .ok)
            #expect(reply.data["limit"] as? Int == applied)
        }
    }

    @Test func negativeOffsetIsClampedToZero() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await api.send(.get, "/api/v1/progress?offset=-4", token: account.accessToken)
            #expect(reply.status == .ok)
            #expect(reply.data["offset"] as? Int == 0)
        }
    }

    @Test(arguments: ["from=2025-13-01", "to=yesterday", "limit=ten", "offset=1.5"])
    func unreadableQueryIsAnsweredWithTheDocumented404(query: String) async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await api.send(.get, "/api/v1/progress?\(query)", token: account.accessToken)
            #expect(reply.status == .notFound)
            #expect(reply.errorMessage != nil)
        }
    }

    @Test func entriesAreOnlyVisibleToTheirOwner() async throws {
        try await TestSupport.withServer { api in
            let ana = try await api.register(email: "ana@example.com")
            let bob = try await api.register(email: "bob@example.com")
            _ = try await log(api, ana, #"{"type":"weight","quantity":60}"#)
            let bobs = try await api.send(.get, "/api/v1/progress", token: bob.accessToken)
            #expect(bobs.data["total"] as? Int == 0)
        }
    }

    @Test func deleteRemovesOwnEntriesAndProtectsOthers() async throws {
        try await TestSupport.withServer { api in
            let ana = try await api.register(email: "ana@example.com")
            let bob = try await api.register(email: "bob@example.com")
            let entry = try await log(api, ana, #"{"type":"weight","quantity":60}"#)
            let id = try #require(entry.data["id"] as? String)

            let forbidden = try await api.send(.delete, "/api/v1/progress/\(id)", token: bob.accessToken)
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.errorMessage != nil)

            let deleted = try await api.send(.delete, "/api/v1/progress/\(id.uppercased())", token: ana.accessToken)
            #expect(deleted.status == .noContent)
            let again = try await api.send(.delete, "/api/v1/progress/\(id)", token: ana.accessToken)
            #expect(again.status == .notFound)
            #expect(again.errorMessage == "Progress entry not found")
        }
    }

    @Test func deleteWithAnInvalidIdIsNotFound() async throws {
        try await TestSupport.withServer { api in
            let ana = try await api.register()
            let reply = try await api.send(.delete, "/api/v1/progress/not-a-uuid", token: ana.accessToken)
            #expect(reply.status == .notFound)
            #expect(reply.errorMessage == "Progress entry not found")
        }
    }
}

struct ProgressPagingEncodingTests {
    @Test func hugeOffsetsAreWrittenAsIntegers() async throws {
        try await TestSupport.withServer { api in
            let account = try await api.register()
            let reply = try await api.send(
                .get, "/api/v1/progress?offset=121645100408832001", token: account.accessToken)
            #expect(reply.status == .ok)
            #expect(reply.text.contains(#""offset":121645100408832001"#))
        }
    }
}
