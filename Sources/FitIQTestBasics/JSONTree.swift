/// A JSON document as written: object members in their order (a key may repeat), numbers as their
/// text. What tests read from the program and the server when the exact document matters, and what
/// ``Mutator`` changes: the same input always gives the same tree and the same text back.
public indirect enum JSONTree: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written (`170.5`, `1e400`).
    case number(String)
    case string(String)
    case array([JSONTree])
    case object([Member])
    /// Text written as it is where this value stands (no JSON value: only ``text(pretty:)`` writes it).
    case raw([UInt8])

    /// One `"key": value` of an object.
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONTree

        public init(_ key: String, _ value: JSONTree) {
            self.key = key
            self.value = value
        }
    }

    /// A step from a value to one inside it: the member at an index of an object, the element at an
    /// index of an array.
    public enum Step: Equatable, Sendable {
        case member(Int)
        case element(Int)
    }

    /// The deepest document read: deeper ones are no JSON to the tests (the program may refuse them too).
    public static let maximumDepth = 512

    /// The document in `bytes` (UTF-8), or `nil` when it is no JSON document.
    public init?(_ bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var reader = Reader(bytes: bytes)
        guard let value = reader.document() else { return nil }
        self = value
    }

    /// The document in `text`, or `nil`.
    public init?(text: String) {
        self.init(Array(text.utf8))
    }

    // MARK: Reading values

    /// The value of the first member named `key` of an object.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    public var double: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var array: [JSONTree]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// An answer's `data` when it has one (`{"data": …}`), else the answer itself.
    public var payload: JSONTree { self["data"] ?? self }

    // MARK: Paths

    /// Every path in the document, the root (`[]`) first, then depth first in document order.
    public var paths: [[Step]] {
        var found: [[Step]] = [[]]
        switch self {
        case .object(let members):
            for (index, member) in members.enumerated() {
                found += member.value.paths.map { [.member(index)] + $0 }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                found += element.paths.map { [.element(index)] + $0 }
            }
        default: break
        }
        return found
    }

    /// The value at `path` (a path of ``paths``).
    public subscript(path path: [Step]) -> JSONTree {
        get {
            guard let first = path.first else { return self }
            switch (self, first) {
            case (.object(let members), .member(let index)): return members[index].value[path: Array(path.dropFirst())]
            case (.array(let elements), .element(let index)): return elements[index][path: Array(path.dropFirst())]
            default: return self
            }
        }
        set {
            guard let first = path.first else { return self = newValue }
            switch (self, first) {
            case (.object(var members), .member(let index)):
                members[index].value[path: Array(path.dropFirst())] = newValue
                self = .object(members)
            case (.array(var elements), .element(let index)):
                elements[index][path: Array(path.dropFirst())] = newValue
                self = .array(elements)
            default: break
            }
        }
    }

    // MARK: Writing

    /// The document as JSON text: indented by two spaces (`pretty`) or on one line; every character
    /// outside ASCII written as a `\u` escape, as Python's `json.dumps` writes it.
    public func text(pretty: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout [UInt8], pretty: Bool, indent: Int) {
        func newline(_ depth: Int) {
            guard pretty else { return }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: 2 * depth)
        }
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let text): out += Array(text.utf8)
        case .string(let text): out += Self.quoted(text)
        case .raw(let bytes): out += bytes
        case .array(let elements):
            guard !elements.isEmpty else { return out += Array("[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out += Array((pretty ? "," : ", ").utf8) }
                newline(indent + 1)
                element.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out += Array("{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out += Array((pretty ? "," : ", ").utf8) }
                newline(indent + 1)
                out += Self.quoted(member.key) + Array(": ".utf8)
                member.value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `text` as a JSON string, quotes included, ASCII only.
    public static func quoted(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        func escape(_ unit: UInt16) {
            let digits = Array("0123456789abcdef".utf8)
            out += Array("\\u".utf8)
            for shift in [12, 8, 4, 0] { out.append(digits[Int((unit >> UInt16(shift)) & 0xF)]) }
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += Array("\\\"".utf8)
            case "\\": out += Array("\\\\".utf8)
            case "\n": out += Array("\\n".utf8)
            case "\r": out += Array("\\r".utf8)
            case "\t": out += Array("\\t".utf8)
            case _ where scalar.value < 0x20 || scalar.value >= 0x7F: Array(String(scalar).utf16).forEach(escape)
            default: out.append(UInt8(scalar.value))
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}
