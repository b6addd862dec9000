/// JSON text (RFC 8259) read token by token from UTF-8 bytes it does not copy: for answers read by the
/// hundred, where `JSONDecoder` gives every object a container and every field a lookup (a page of
/// progress entries), and for the tests' JSON tree. A read that meets anything but what it reads returns
/// `nil` (or `false`) and leaves the position undefined: the caller gives up on the document.
///
/// The bytes are those of a `withUnsafeBytes` closure: the reader must not outlive it.
public struct JSONReader {
    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read.
    public private(set) var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether nothing but white space is left.
    public mutating func atEnd() -> Bool {
        skipSpace()
        return offset == bytes.count
    }

    /// The next byte after white space, not taken.
    public mutating func peek() -> UInt8? {
        skipSpace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    /// Takes `byte` when it comes next after white space.
    public mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        offset += 1
        return true
    }

    /// Takes `null`, `true` or `false` (any `word` of ASCII letters) when it comes next.
    public mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - offset >= expected.count,
            expected.indices.allSatisfy({ bytes[offset + $0] == expected[$0] })
        else { return false }
        offset += expected.count
        return true
    }

    /// A string's text, escapes read; `nil` for no string, a control character, a bad escape, a lone
    /// surrogate or bytes that are not UTF-8.
    public mutating func string() -> String? {
        guard let (start, closed) = plainText(asciiOnly: false) else { return nil }
        if closed {
            return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1]), as: UTF8.self)
        }
        return bytes[offset] == UInt8(ascii: "\\") ? escapedString(from: start) : nil
    }

    /// A string of printable ASCII characters written without escapes: its bytes between the quotes (to
    /// compare with a name). `nil` for any other string, and for no string.
    public mutating func asciiString() -> UnsafeRawBufferPointer? {
        guard let (start, closed) = plainText(asciiOnly: true), closed else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset - 1])
    }

    /// A number as written (`-? int frac? exp?`).
    public mutating func numberText() -> String? {
        skipSpace()
        let start = offset
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
            return offset - first
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integer = offset
        guard digits() > 0 else { return nil }
        if bytes[integer] == UInt8(ascii: "0"), offset - integer > 1 { return nil }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { return nil }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard digits() > 0 else { return nil }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    /// A number's value, the nearest `Double`; `nil` for no number, and for one that `JSONDecoder` may
    /// not read: too large to be finite, or read as zero from digits that are not all zeros (`1e-400`
    /// is too small to be anything else; it also refuses some zeros with an exponent, such as `0.0e5`).
    public mutating func number() -> Double? {
        guard let text = numberText(), let value = Double(text), value.isFinite else { return nil }
        guard value != 0 || text.utf8.allSatisfy({ !(UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return value
    }

    /// Skips a string, a number, `true`, `false` or `null`; `false` for anything else (an array or an object).
    public mutating func skipScalar() -> Bool {
        switch peek() {
        case UInt8(ascii: "\""): string() != nil
        case UInt8(ascii: "t"): literal("true")
        case UInt8(ascii: "f"): literal("false")
        case UInt8(ascii: "n"): literal("null")
        default: numberText() != nil
        }
    }

    /// Takes a string's opening quote and the characters after it, up to its closing quote (taken:
    /// `closed`) or to the first backslash, control character or (`asciiOnly`) byte outside ASCII;
    /// returns where the text starts. `nil` for no string, and for one that does not end.
    private mutating func plainText(asciiOnly: Bool) -> (start: Int, closed: Bool)? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = offset
        while offset < bytes.count {
            switch bytes[offset] {
            case UInt8(ascii: "\""):
                offset += 1
                return (start, true)
            case UInt8(ascii: "\\"), 0..<0x20: return (start, false)
            case 0x7F... where asciiOnly: return (start, false)
            default: offset += 1
            }
        }
        return nil
    }

    private mutating func skipSpace() {
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
    }

    /// The rest of a string from its first backslash, its text from `start`.
    private mutating func escapedString(from start: Int) -> String? {
        var units = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(validating: units, as: UTF8.self)
            case 0..<0x20: return nil
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { return nil }
                offset += 1
                switch bytes[offset - 1] {
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
        guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u")
        else { return nil }
        offset += 2
        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }
}
