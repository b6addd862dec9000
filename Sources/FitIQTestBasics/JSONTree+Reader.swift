import FitIQCore

extension JSONTree {
    /// The document `bytes` (UTF-8) hold: one JSON value (RFC 8259), nothing after it but white space;
    /// `nil` for anything else, and for documents nested deeper than ``JSONTree/maximumDepth``.
    static func read(_ bytes: [UInt8]) -> JSONTree? {
        bytes.withUnsafeBytes { raw in
            var reader = JSONReader(raw)
            guard let value = value(&reader, depth: 0), reader.atEnd() else { return nil }
            return value
        }
    }

    private static func value(_ reader: inout JSONReader, depth: Int) -> JSONTree? {
        guard depth <= JSONTree.maximumDepth else { return nil }
        switch reader.peek() {
        case nil: return nil
        case UInt8(ascii: "n"): return reader.literal("null") ? .null : nil
        case UInt8(ascii: "t"): return reader.literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return reader.literal("false") ? .bool(false) : nil
        case UInt8(ascii: "\""): return reader.string().map(JSONTree.string)
        case UInt8(ascii: "["): return array(&reader, depth: depth)
        case UInt8(ascii: "{"): return object(&reader, depth: depth)
        default: return reader.numberText().map(JSONTree.number)
        }
    }

    private static func array(_ reader: inout JSONReader, depth: Int) -> JSONTree? {
        _ = reader.take(UInt8(ascii: "["))
        var elements: [JSONTree] = []
        if reader.take(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            guard let element = value(&reader, depth: depth + 1) else { return nil }
            elements.append(element)
            if reader.take(UInt8(ascii: "]")) { return .array(elements) }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    private static func object(_ reader: inout JSONReader, depth: Int) -> JSONTree? {
        _ = reader.take(UInt8(ascii: "{"))
        var members: [Member] = []
        if reader.take(UInt8(ascii: "}")) { return .object(members) }
        while true {
            guard let key = reader.string(), reader.take(UInt8(ascii: ":")),
                let value = value(&reader, depth: depth + 1)
            else { return nil }
            members.append(Member(key, value))
            if reader.take(UInt8(ascii: "}")) { return .object(members) }
            guard reader.take(UInt8(ascii: ",")) else { return nil }
        }
    }
}
