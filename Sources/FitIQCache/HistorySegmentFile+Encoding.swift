import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HistorySegmentFile {
    /// The file's bytes for `segment`, written directly: what `JSONEncoder` writes for it as every cache
    /// file is written (compact, keys sorted, slashes as they are), byte for byte. A first sync of a
    /// long history writes its months at once, and `JSONEncoder` (a dictionary a value, keys sorted a
    /// value) took far longer on them: docs/benchmarks.md "bench-scale" gives the figures and the test
    /// that holds these bytes to the encoder's.
    static func encoded(_ segment: HistorySegment) throws -> Data {
        var json = JSONBytes(capacity: 64 + segment.entries.count * 170)
        json.append(#"{"entries":["#)
        for (index, entry) in segment.entries.enumerated() {
            json.append(index == 0 ? #"{"id":"# : #",{"id":"#)
            json.uuid(entry.id)
            json.append(#","loggedAt":"#)
            try json.number(entry.loggedAt.timeIntervalSinceReferenceDate)
            if let notes = entry.notes {
                json.append(#","notes":"#)
                json.string(notes)
            }
            json.append(#","quantity":"#)
            try json.number(entry.quantity)
            if let serverId = entry.serverId {
                json.append(#","serverId":"#)
                json.string(serverId)
            }
            json.append(#","source":"#)
            json.string(entry.source.rawValue)
            json.append(#","type":"#)
            json.string(entry.type)
            json.append("}")
        }
        json.append(#"],"schemaVersion":"#)
        json.append(String(schemaVersion))
        json.append(#","segment":"#)
        json.string(segment.key.description)
        json.append("}")
        return Data(json.bytes)
    }
}

/// JSON text as `JSONEncoder` writes it, appended to a byte buffer.
private struct JSONBytes {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest text, without a trailing `.0`; a
    /// value JSON cannot hold (infinite, not a number) throws, as it does there.
    mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "\(value) cannot be written in JSON"))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// A UUID in quotes as `uuidString` writes it (upper-case hexadecimal, grouped 8-4-4-4-12), without
    /// the `snprintf` that `uuidString` makes for it.
    mutating func uuid(_ id: UUID) {
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(Self.upperHex[Int(byte >> 4)])
                bytes.append(Self.upperHex[Int(byte & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let upperHex = Array("0123456789ABCDEF".utf8)

    /// A string in quotes, escaped as `JSONEncoder` escapes it.
    mutating func string(_ text: String) {
        JSONText.appendQuoted(text, to: &bytes)
    }
}
