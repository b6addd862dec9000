import Foundation
import Testing

@testable import FitIQCore

/// Text written as a JSON string by hand (the cache's month files, `export --json`) is what
/// `JSONEncoder` writes for it, and reads back as the same text.
struct JSONTextTests {
    @Test func aQuotedTextIsWhatJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let controls = String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) })
        for text in ["", "plain", controls, #"a "quoted" \ back\slash / and //"#, "\u{7F}é\u{2028}🏃‍♀️", "tab\tnew\nline"]
        {
            let quoted = JSONText.quoted(text)
            #expect(quoted == String(decoding: try encoder.encode(text), as: UTF8.self))
            #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == text)
        }
    }
}
