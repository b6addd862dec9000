extension JSONTree {
    /// Reads one JSON document (RFC 8259, nothing after it but white space) from UTF-8 bytes; `nil` for
    /// anything else, and for documents nested deeper than ``JSONTree/maximumDepth``.
    struct Reader {
        let bytes: [UInt8]
        var at = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func document() -> JSONTree? {
            guard let value = value(depth: 0) else { return nil }
            skipSpace()
            return at == bytes.count ? value : nil
        }

        private mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
        }

        private mutating func literal(_ word: String) -> Bool {
            let expected = Array(word.utf8)
            guard bytes.count - at >= expected.count, Array(bytes[at..<at + expected.count]) == expected else {
                return false
            }
            at += expected.count
            return true
        }

        private mutating func value(depth: Int) -> JSONTree? {
            guard depth <= JSONTree.maximumDepth else { return nil }
            skipSpace()
            guard at < bytes.count else { return nil }
            switch bytes[at] {
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "\""): return string().map(JSONTree.string)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "{"): return object(depth: depth)
            default: return number()
            }
        }

        private mutating func array(depth: Int) -> JSONTree? {
            at += 1
            var elements: [JSONTree] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipSpace()
                guard at < bytes.count else { return nil }
                at += 1
                switch bytes[at - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return .array(elements)
                default: return nil
                }
            }
        }

        private mutating func object(depth: Int) -> JSONTree? {
            at += 1
            var members: [Member] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append(Member(key, value))
                skipSpace()
                guard at < bytes.count else { return nil }
                at += 1
                switch bytes[at - 1] {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "}"): return .object(members)
                default: return nil
                }
            }
        }

        /// `-? int frac? exp?`, kept as written.
        private mutating func number() -> JSONTree? {
            let start = at
            func digits() -> Int {
                let first = at
                while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
                return at - first
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            let integer = at
            guard digits() > 0 else { return nil }
            if bytes[integer] == UInt8(ascii: "0"), at - integer > 1 { return nil }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { return nil }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { return nil }
            }
            return .number(String(decoding: bytes[start..<at], as: UTF8.self))
        }

        /// A string from its opening quote; `nil` for a control character, a bad escape or a lone surrogate.
        private mutating func string() -> String? {
            at += 1
            var units: [UInt8] = []
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""): return String(validating: units, as: UTF8.self)
                case 0..<0x20: return nil
                case UInt8(ascii: "\\"):
                    guard at < bytes.count else { return nil }
                    at += 1
                    switch bytes[at - 1] {
                    case UInt8(ascii: "\""): units.append(0x22)
                    case UInt8(ascii: "\\"): units.append(0x5C)
                    case UInt8(ascii: "/"): units.append(0x2F)
                    case UInt8(ascii: "b"): units.append(0x08)
                    case UInt8(ascii: "f"): units.append(0x0C)
                    case UInt8(ascii: "n"): units.append(0x0A)
                    case UInt8(ascii: "r"): units.append(0x0D)
                    case UInt8(ascii: "t"): units.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = escapedScalar() else { return nil }
                        units += Array(String(scalar).utf8)
                    default: return nil
                    }
                default: units.append(byte)
                }
            }
            return nil
        }

        /// The character of a `\uXXXX` escape (after the `u`), a surrogate pair read whole.
        private mutating func escapedScalar() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high) }
            guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - at >= 4 else { return nil }
            let text = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            guard let value = UInt32(text, radix: 16), !text.contains("+"), !text.contains("-") else { return nil }
            at += 4
            return value
        }
    }
}
