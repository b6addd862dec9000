import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A page of progress entries read straight from its bytes when it is written as the server writes one:
/// `{"data": {"entries": [{"id": "…", "type": "…", "quantity": 72.5, "date": "…", "notes": "…"}, …],
/// "total": 250, "limit": 100, "offset": 0}}`, or without `data` as the spec writes it; members in any
/// order, `logged_at` for `date`, `null` for any of them, and other members beside them holding a string,
/// a number, `true`, `false` or `null`.
///
/// A first sync of 10,000 entries spent a quarter of its processor time in `JSONDecoder` reading its
/// 102 pages (a container for every object, a lookup and a type check for every field); on the same
/// server, decoding each page twice made the sync ~17 ms slower. Any other page (a bare list, an id as
/// a number, a quantity as text, a key written with an escape or outside ASCII, a member given twice, an object where
/// a value is expected) is `nil`, and `JSONDecoder` reads it and words what is wrong with it. Where
/// this reads a page, `JSONDecoder` reads the same one from the same bytes: `WireProgressScanningTests`
/// hold it to that, and the `wire` fuzz target checks it for every input.
extension WireProgressPage {
    static func scanned(_ body: Data) -> WireProgressPage? {
        body.withUnsafeBytes { raw in
            var reader = JSONReader(raw)
            guard let (page, payload) = members(&reader, enveloped: true), reader.atEnd() else { return nil }
            return payload ?? page
        }
    }

    /// A page's object, and when `enveloped`, the page its `data` member holds.
    private static func members(_ reader: inout JSONReader, enveloped: Bool) -> (WireProgressPage, WireProgressPage?)? {
        var entries: [WireProgressEntry]?
        var (total, limit, offset): (WireNumber?, WireNumber?, WireNumber?)
        var payload: WireProgressPage?
        var seen = Members()
        let read = object(&reader) { key, reader in
            guard let index = pageNames.firstIndex(where: key.spells), index < 4 || enveloped else {
                return reader.skipScalar()
            }
            guard seen.first(index) else { return false }
            switch index {
            case 0:
                if reader.literal("null") { return true }
                entries = list(&reader)
                return entries != nil
            case 1...3:
                guard let number = number(&reader) else { return false }
                if index == 1 { total = number } else if index == 2 { limit = number } else { offset = number }
                return true
            default:
                guard let (page, _) = members(&reader, enveloped: false) else { return false }
                payload = page
                return true
            }
        }
        guard read else { return nil }
        return (WireProgressPage(entries: entries, total: total, limit: limit, offset: offset), payload)
    }

    private static let pageNames: [StaticString] = ["entries", "total", "limit", "offset", "data"]
    private static let entryNames: [StaticString] = ["id", "type", "quantity", "date", "logged_at", "notes"]

    private static func list(_ reader: inout JSONReader) -> [WireProgressEntry]? {
        guard reader.take(UInt8(ascii: "[")) else { return nil }
        var entries: [WireProgressEntry] = []
        if reader.take(UInt8(ascii: "]")) { return entries }
        while true {
            guard let entry = entry(&reader) else { return nil }
            entries.append(entry)
            if reader.take(UInt8(ascii: "]")) { return entries }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private static func entry(_ reader: inout JSONReader) -> WireProgressEntry? {
        var (id, type, date, loggedAt, notes): (String?, String?, String?, String?, String?)
        var quantity: WireNumber?
        var seen = Members()
        let read = object(&reader) { key, reader in
            guard let index = entryNames.firstIndex(where: key.spells) else { return reader.skipScalar() }
            guard seen.first(index) else { return false }
            if index == 2 {
                guard let number = number(&reader) else { return false }
                quantity = number
                return true
            }
            guard let value = text(&reader) else { return false }
            switch index {
            case 0: id = value
            case 1: type = value
            case 3: date = value
            case 4: loggedAt = value
            default: notes = value
            }
            return true
        }
        guard read else { return nil }
        return WireProgressEntry(
            id: id.map(WireText.init), type: type, quantity: quantity, date: date ?? loggedAt, notes: notes)
    }

    /// An object's members, each key's bytes given to `member` to read its value; `false` for no object,
    /// or when `member` gives up.
    private static func object(
        _ reader: inout JSONReader, _ member: (UnsafeRawBufferPointer, inout JSONReader) -> Bool
    ) -> Bool {
        guard reader.take(UInt8(ascii: "{")) else { return false }
        if reader.take(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = reader.asciiString(), reader.take(UInt8(ascii: ":")), member(key, &reader) else {
                return false
            }
            if reader.take(UInt8(ascii: "}")) { return true }
            guard reader.take(UInt8(ascii: ",")) else { return false }
        }
    }

    /// A finite number, or `null` (`.some(nil)`); `nil` for anything else.
    private static func number(_ reader: inout JSONReader) -> WireNumber?? {
        if reader.literal("null") { return .some(nil) }
        return reader.number().map(WireNumber.init)
    }

    /// A string, or `null` (`.some(nil)`); `nil` for anything else.
    private static func text(_ reader: inout JSONReader) -> String?? {
        if reader.literal("null") { return .some(nil) }
        return reader.string().map(Optional.some)
    }

    /// The members of an object read so far, by their index in the reader's list.
    private struct Members {
        private var bits: UInt8 = 0

        /// Whether member `index` is met for the first time (and notes it).
        mutating func first(_ index: Int) -> Bool {
            defer { bits |= 1 << index }
            return bits & 1 << index == 0
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are `name`'s.
    fileprivate func spells(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount
            && elementsEqual(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}
