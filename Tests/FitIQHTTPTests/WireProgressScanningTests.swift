import FitIQDevServer
import Foundation
import Testing

@testable import FitIQCore
@testable import FitIQHTTP

/// A progress page in the server's shapes is read without `JSONDecoder`, and what is read is what
/// `JSONDecoder` reads from the same bytes; every other page is left to `JSONDecoder`.
struct WireProgressScanningTests {
    /// What `JSONDecoder` reads from `text`, or `nil` when it reads nothing.
    func decoded(_ text: String) -> WireProgressPage? {
        try? JSONDecoder().decode(Envelope<WireProgressPage>.self, from: Data(text.utf8)).payload
    }

    static let entry = #"{"id":"6b433be3-e2c4","type":"height","quantity":173.9,"date":"2026-11-29T10:39:21.933Z"}"#

    @Test(
        arguments: [
            // Production's envelope, and the spec's page without it.
            #"{"data":{"entries":[\#(entry),\#(entry)],"limit":100,"offset":0,"total":2}}"#,
            #"{"entries":[\#(entry)],"total":1,"limit":100,"offset":0}"#,
            #"{"data":{"entries":[],"total":0}}"#, #"{"data":{}}"#, "{}", #"{"data":{"entries":null,"total":null}}"#,
            // Members in another order, white space everywhere, `logged_at` for `date`, `null` for each.
            " \r\n\t{ \"data\" : { \"total\" : 3 , \"entries\" : [ { \"quantity\" : 1 , \"id\" : \"a\" ,"
                + " \"logged_at\" : \"2024-01-15T08:00:00Z\" } ] } } \n",
            #"{"data":{"entries":[{"id":null,"type":null,"quantity":null,"date":null,"logged_at":"2024-01-15T08:00:00Z","notes":null}]}}"#,
            #"{"data":{"entries":[{"id":"a","date":"2024-01-15T08:00:00Z","logged_at":"2020-01-01T00:00:00Z"}]}}"#,
            // Members it does not know, of every kind of value but arrays and objects.
            #"{"success":true,"data":{"entries":[{"id":"a","user_id":"u","created_at":null,"quantity":2,"x":false,"n":-1.5e3}],"meta":"m"},"code":200}"#,
            // Text: escapes of every kind, a surrogate pair, text as it is outside ASCII.
            #"{"data":{"entries":[{"id":"a\"b\\c\/d","notes":"line\nnext\ttab\b\f\r \u00e9 \ud83d\ude00 \u0000 é 😀","type":"h\u0065ight"}]}}"#,
            // Numbers of every form.
            #"{"data":{"entries":[{"quantity":-0},{"quantity":0.1},{"quantity":1E2},{"quantity":1.5e-3},{"quantity":123456789012345678901234567890},{"quantity":5e-324},{"quantity":1.7976931348623157e308},{"quantity":0.000},{"quantity":-0.0}],"total":1e2,"limit":100.0,"offset":-0}}"#,
            // `data` beside the spec's members: the envelope wins, as JSONDecoder reads it.
            #"{"entries":[],"total":7,"data":{"entries":[\#(entry)],"total":1}}"#,
        ])
    func theServersShapesAreReadAsJSONDecoderReadsThem(text: String) throws {
        let scanned = try #require(WireProgressPage.scanned(Data(text.utf8)), "read directly")
        #expect(scanned == decoded(text))
    }

    /// What is not written as the server writes a page goes to `JSONDecoder`: it reads some of these (a
    /// list under `data`, an id as a number, a quantity as text: below) and words what is wrong with the
    /// others.
    @Test(
        arguments: [
            "[\(entry)]", #"{"data":[\#(entry)]}"#, #"{"data":{"entries":[{"id":12}]}}"#,
            #"{"data":{"entries":[{"quantity":"72.5"}]}}"#, #"{"data":{"total":"3"}}"#,
            #"{"d\u0061ta":{"entries":[]}}"#, #"{"data":{"entries":[{"é":1}]}}"#,
            #"{"data":{"entries":[{"id":"a","id":"b"}]}}"#,
            #"{"data":{"total":1,"total":2}}"#, #"{"data":{"entries":[{"id":"a","extra":{"x":1}}]}}"#,
            #"{"data":{"entries":[],"meta":[1]}}"#, #"{"data":null}"#, #"{"data":{"entries":{}}}"#,
            #"{"data":{"entries":[1]}}"#, #"{"data":{"entries":[]}} x"#, #"{"data":{"entries":[],}}"#,
            "{\"data\":{\"entries\":[{\"id\":\"a\u{1}\"}]}}",
            #"{"data":{"entries":[{"id":"\ud800"}]}}"#, #"{"data":{"entries":[{"quantity":1e400}]}}"#,
            #"{"data":{"entries":[{"quantity":1e-400}]}}"#, #"{"data":{"entries":[{"quantity":0.000e5}]}}"#,
            #"{"data":{"entries":[{"quantity":01}]}}"#, #"{"data":{"entries":[{"quantity":true}]}}"#,
            #"{"data":{"entries":[{"type":1}]}}"#, "", "null", "<html>",
        ])
    func otherTextIsLeftToJSONDecoder(text: String) throws {
        #expect(WireProgressPage.scanned(Data(text.utf8)) == nil)
    }

    @Test func pagesLeftToJSONDecoderAreStillRead() throws {
        let entry = #"{"id":12,"type":"height","quantity":"72.5","date":"2024-01-15T08:00:00Z"}"#
        for text in [#"{"data":[\#(entry)]}"#, #"{"data":{"entries":[\#(entry)],"total":"1"}}"#] {
            let page = try WireResponses.progressPage(Data(text.utf8), query: ProgressQuery())
            #expect(page.entries.map(\.id) == ["12"] && page.entries.map(\.quantity) == [72.5] && page.total == 1)
        }
    }

    /// In a value, and in a key it does not know (JSONDecoder reads no document with either; the `wire`
    /// fuzz target found the key).
    @Test func bytesThatAreNotUTF8AreLeftToJSONDecoder() {
        for (before, after) in [
            (#"{"data":{"entries":[{"id":"a"#, #""}]}}"#), (#"{"data":{"entries":[{"x"#, #"":1}]}}"#),
        ] {
            let bytes = Array(before.utf8) + [0xC3, 0x28, 0xFF] + Array(after.utf8)
            #expect(WireProgressPage.scanned(Data(bytes)) == nil)
        }
    }

    /// The development server's own pages, in both shapes, are read directly.
    @Test(arguments: DevServerConfiguration.ResponseShape.allCases)
    func theDevelopmentServersPagesAreReadDirectly(shape: DevServerConfiguration.ResponseShape) async throws {
        try await LiveServer.with(shape: shape) { server in
            let account = try await server.register(server.accounts())
            let today = CalendarDate(containing: server.now.date(), in: .utc)
            for day in 1...120 { try await account.logHeight(170 + Double(day % 7) / 10, on: today.adding(days: -day)) }
            #expect(try await account.syncNow().isSynced)
            for offset in [0, 100] {
                let answer = try await account.session.authorized { token throws(RemoteError) in
                    try await server.transport.send(
                        .GET, "api/v1/progress",
                        query: [
                            URLQueryItem(name: "type", value: "height"),
                            URLQueryItem(name: "from", value: "1900-01-01"),
                            URLQueryItem(name: "to", value: "2200-01-01"), URLQueryItem(name: "limit", value: "100"),
                            URLQueryItem(name: "offset", value: "\(offset)"),
                        ], bearer: token)
                }
                let scanned = try #require(WireProgressPage.scanned(answer.body))
                let total = try #require(scanned.total?.integer)
                #expect(total > 100 && scanned.entries?.count == min(100, total - offset))
                #expect(scanned == decoded(String(decoding: answer.body, as: UTF8.self)))
            }
        }
    }
}
