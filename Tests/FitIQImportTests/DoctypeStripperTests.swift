import Foundation
import Testing

@testable import FitIQImport

/// The DOCTYPE never reaches libxml2, however the input is cut into chunks.
struct DoctypeStripperTests {
    static let prolog = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- a <!DOCTYPE in a comment -->\n"
    static let body = "<HealthData locale=\"en_US\">\n <Me a=\"]>\"/>\n<!DOCTYPE late>\n</HealthData>\n"

    /// Strips `text` fed in chunks of `size` bytes.
    static func strip(_ text: String, chunk size: Int) throws -> String {
        var stripper = DoctypeStripper()
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            let end = min(start + size, bytes.count)
            try bytes[start..<end].withUnsafeBytes { chunk in
                try stripper.process(chunk) { output.append(contentsOf: $0) }
            }
        }
        try stripper.finish { output.append(contentsOf: $0) }
        return String(decoding: output, as: UTF8.self)
    }

    static let doctypes = [
        "<!DOCTYPE HealthData [\n<!ELEMENT HealthData (x)>\n<!ATTLIST Me a CDATA #IMPLIED>\n]>",
        "<!DOCTYPE HealthData [<!ENTITY e \"]>\"> <!ENTITY f ']>'>]>",
        "<!DOCTYPE HealthData [<!-- ]> ' \" --> <?pi ]> ?>]>",
        "<!DOCTYPE HealthData SYSTEM \"http://x/[>\" [<!ENTITY % ext SYSTEM \"ext.dtd\"> %ext;]>",
        "<!DOCTYPE HealthData SYSTEM 'http://example.com/a.dtd'>",
        "<!DOCTYPE HealthData [\n<!ATTLIST VisionPrescription\n  brand CDATA #IMPLIED\n<!ELEMENT RightEye EMPTY>\n>\n>\n]>",
    ]

    @Test(arguments: doctypes)
    func removesTheDoctypeAtEveryChunkBoundary(_ doctype: String) throws {
        let newlines = String(repeating: "\n", count: doctype.count(where: { $0 == "\n" }))
        let expected = Self.prolog + newlines + "\n" + Self.body
        for size in [1, 2, 3, 5, 7, 9, 10, 64, 4096] {
            #expect(try Self.strip(Self.prolog + doctype + "\n" + Self.body, chunk: size) == expected, "chunk \(size)")
        }
    }

    @Test
    func leavesADocumentWithoutDoctypeUntouched() throws {
        let text = Self.prolog + Self.body
        for size in [1, 4, 4096] {
            #expect(try Self.strip(text, chunk: size) == text)
        }
    }

    @Test(arguments: [
        [0xFE, 0xFF, 0x00, 0x3C], [0xFF, 0xFE, 0x3C, 0x00], [0x3C, 0x00, 0x3F, 0x00], [0x4C, 0x6F, 0xA7, 0x94],
    ])
    func refusesEncodingsThatHideMarkupFromAByteScan(_ start: [UInt8]) throws {
        var stripper = DoctypeStripper()
        #expect(throws: DoctypeStripper.Failure.notUTF8) {
            try start.withUnsafeBytes { try stripper.process($0) { _ in } }
        }
    }

    @Test
    func anUnendingDoctypeIsTruncatedAndAnEndlessOneRefused() throws {
        #expect(throws: DoctypeStripper.Failure.unterminatedDoctype(line: 2)) {
            try Self.strip("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [ <!ELEMENT a EMPTY>", chunk: 16)
        }
        let endless = "<!DOCTYPE HealthData [" + String(repeating: " ", count: DoctypeStripper.maxDoctypeBytes)
        #expect(throws: DoctypeStripper.Failure.doctypeTooLong(line: 1)) {
            try Self.strip(endless, chunk: 65_536)
        }
    }
}
