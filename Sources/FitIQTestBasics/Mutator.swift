/// Random mutations of a file or an answer's body, drawn from a ``SeededRandom``: bit flips, byte
/// inserts and deletes, truncation, swapped JSON types, deep nesting, huge numbers, duplicate keys,
/// invalid UTF-8, dates at and past the calendar's ends, escape sequences in strings, and a mix of them.
/// The same seed and input give the same mutants.
public enum Mutation: String, CaseIterable, Comparable, Sendable {
    case bitFlip = "bit flip"
    case byteInsert = "byte insert"
    case byteDelete = "byte delete"
    case truncation
    case typeSwap = "type swap"
    case deepNesting = "deep nesting"
    case hugeNumber = "huge number"
    case duplicateKey = "duplicate key"
    case invalidUTF8 = "invalid UTF-8"
    case oddDate = "odd date"
    /// Control bytes and terminal escape sequences in string values (answers only: what the program
    /// wrote itself holds none).
    case escapeSequences = "escape sequences"

    /// The kinds for files: every one but escape sequences.
    public static let forFiles = allCases.filter { $0 != .escapeSequences }

    public static func < (left: Mutation, right: Mutation) -> Bool { left.rawValue < right.rawValue }

    /// A mutant of `data`.
    public func apply(_ data: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var mutator = Mutator(random: random)
        defer { random = mutator.random }
        return mutator.apply(self, data)
    }

    /// A mutant of `data` different from it, and its kind: one of `kinds`, or `"mix"` (two or three
    /// of them, one after the other).
    public static func mutant(of data: [UInt8], kinds: [Mutation], _ random: inout SeededRandom) -> (
        kind: String, bytes: [UInt8]
    ) {
        let names = kinds.sorted().map(\.rawValue) + ["mix"]
        for _ in 0..<20 {
            let kind = random.pick(names)
            let mutant = Mutation(rawValue: kind)?.apply(data, &random) ?? mix(data, kinds: kinds, &random)
            if mutant != data { return (kind, mutant) }
        }
        return (Mutation.truncation.rawValue, Array(data.dropLast()))
    }

    /// Two or three kinds of `kinds`, applied one after the other.
    public static func mix(_ data: [UInt8], kinds: [Mutation], _ random: inout SeededRandom) -> [UInt8] {
        var data = data
        for kind in random.sample(kinds.sorted(), count: random.int(in: 2...3)) {
            data = kind.apply(data, &random)
        }
        return data
    }
}

/// The mutations' tables and bodies.
struct Mutator {
    var random: SeededRandom

    /// Numbers no Double or Int64 holds, and text that is no JSON number.
    static let hugeNumbers = [
        "1e400", "-1e400", "123456789012345678901", "-98765432109876543210", "-0", "-0.0", "NaN", "Infinity",
        "-Infinity", "1" + String(repeating: "0", count: 400), "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "4.9e-325", "1.7976931348623157e309", "0x10", "1e", "01", "+1", ".5",
    ]
    /// Valid numbers at the ends of Double and Int64: they decode, then must be used safely.
    static let extremeNumbers = [
        "1e308", "-1.7976931348623157e308", "5e-324", "9223372036854775807", "-9223372036854775808", "1e19",
        "-1e19", "1e15", "-62135596800",
    ]
    static let badUTF8: [[UInt8]] = [
        [0xFF], [0xFE, 0xFF], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        [0x80, 0x80], [0xF0, 0x9F, 0x98],
    ]
    /// Dates at and past the ends of the calendar, and dates that do not exist.
    static let oddDates = [
        "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "99999-01-01T00:00:00Z",
        "+275760-09-13T00:00:00Z", "-0001-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:00+14:00", "1969-12-31T23:59:59.999999999Z", "0001-01-01", "9999-12-31", "2026-00-00",
    ]
    static let hostileText = [
        "\u{1B}]0;pwned\u{07}", "\u{1B}[2J\u{1B}[H", "\u{1B}[31mred", "\u{9B}2J", "\u{07}\u{08}\u{7F}", "a\u{0}b",
        "\u{202E}evil", "\u{1B}P+q\u{1B}\\",
    ]
    static let typeSwaps = [
        "\"text\"", "\"\"", "0", "-1", "2.5", "null", "true", "[]", "{}", "[1, \"a\"]", "{\"x\": 1}",
    ]

    mutating func apply(_ kind: Mutation, _ data: [UInt8]) -> [UInt8] {
        switch kind {
        case .bitFlip: bitFlip(data)
        case .byteInsert: byteInsert(data)
        case .byteDelete: byteDelete(data)
        case .truncation: truncate(data)
        case .typeSwap: typeSwap(data)
        case .deepNesting: deepNesting(data)
        case .hugeNumber: hugeNumber(data)
        case .duplicateKey: duplicateKey(data)
        case .invalidUTF8: invalidUTF8(data)
        case .oddDate: oddDate(data)
        case .escapeSequences: escapeStrings(data)
        }
    }

    /// The document with the value at `path` replaced by the text `raw`.
    static func replaced(_ document: JSONTree?, at path: [JSONTree.Step], with raw: [UInt8]) -> [UInt8] {
        guard var document, !path.isEmpty else { return raw }
        document[path: path] = .raw(raw)
        return document.text()
    }

    /// A random path, preferring numbers when `numbers` and there are any.
    mutating func pickPath(_ document: JSONTree, numbers: Bool = false) -> [JSONTree.Step] {
        let every = document.paths
        if numbers {
            let chosen = every.filter { if case .number = document[path: $0] { true } else { false } }
            if !chosen.isEmpty && random.unit() < 0.8 { return random.pick(chosen) }
        }
        return every.count > 1 ? random.pick(Array(every.dropFirst())) : every[0]
    }

    mutating func bitFlip(_ data: [UInt8]) -> [UInt8] {
        var data = data.isEmpty ? Array("{}".utf8) : data
        for _ in 0..<random.int(in: 1...8) {
            data[random.below(data.count)] ^= 1 << UInt8(random.below(8))
        }
        return data
    }

    mutating func byteInsert(_ data: [UInt8]) -> [UInt8] {
        let at = random.int(in: 0...data.count)
        var inserted: [UInt8] = []
        for _ in 0..<random.int(in: 1...8) {
            let pool: [UInt8] = [UInt8(random.below(256))] + Array("\"{[]},:\\".utf8) + [0, 0x2D, 0x39]
            inserted.append(random.pick(pool))
        }
        return Array(data[..<at]) + inserted + Array(data[at...])
    }

    mutating func byteDelete(_ data: [UInt8]) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        let at = random.below(data.count)
        let end = min(data.count, at + random.int(in: 1...16))
        return Array(data[..<at]) + Array(data[end...])
    }

    mutating func truncate(_ data: [UInt8]) -> [UInt8] {
        data.isEmpty ? [] : Array(data.prefix(random.below(data.count)))
    }

    mutating func typeSwap(_ data: [UInt8]) -> [UInt8] {
        guard let document = JSONTree(data) else { return byteInsert(data) }
        let path = pickPath(document)
        let old = document[path: path]
        let others = Self.typeSwaps.filter { JSONTree(text: $0) != old }.map { Array($0.utf8) }
        let wrapped = [
            JSONTree.array([old]).text(pretty: false), JSONTree.object([.init("value", old)]).text(pretty: false),
        ]
        return Self.replaced(document, at: path, with: random.pick(others + wrapped))
    }

    mutating func deepNesting(_ data: [UInt8]) -> [UInt8] {
        let depth = random.pick([100, 600, 10_000, 100_000])
        let (opener, closer) = random.pick([("[", "]"), ("{\"a\":", "}")])
        let closers = depth * random.pick([1, 1, 0])
        let raw =
            String(repeating: opener, count: depth) + (opener == "[" ? "" : "1")
            + String(repeating: closer, count: closers)
        let document = JSONTree(data)
        let path = document.flatMap { random.unit() < 0.8 ? pickPath($0) : nil } ?? []
        return Self.replaced(document, at: path, with: Array(raw.utf8))
    }

    mutating func hugeNumber(_ data: [UInt8]) -> [UInt8] {
        guard let document = JSONTree(data) else { return data + Array(random.pick(Self.hugeNumbers).utf8) }
        let path = pickPath(document, numbers: true)
        let number = random.pick(random.pick([Self.hugeNumbers, Self.extremeNumbers]))
        return Self.replaced(document, at: path, with: Array(number.utf8))
    }

    mutating func duplicateKey(_ data: [UInt8]) -> [UInt8] {
        guard var document = JSONTree(data) else { return byteInsert(data) }
        let objects = document.paths.filter {
            if case .object(let members) = document[path: $0] { !members.isEmpty } else { false }
        }
        guard !objects.isEmpty else { return byteInsert(data) }
        let path = random.pick(objects)
        guard case .object(var members) = document[path: path] else { return byteInsert(data) }
        let copied = random.pick(members)
        let value = random.pick([JSONTree.null, .number("2"), .string("other"), .array([]), .object([]), copied.value])
        members.append(.init(copied.key, value))
        document[path: path] = .object(members)
        return document.text()
    }

    mutating func invalidUTF8(_ data: [UInt8]) -> [UInt8] {
        let quotes = data.indices.filter { data[$0] == UInt8(ascii: "\"") }
        let at = !quotes.isEmpty && random.unit() < 0.8 ? random.pick(quotes) + 1 : random.int(in: 0...data.count)
        return Array(data[..<at]) + random.pick(Self.badUTF8) + Array(data[at...])
    }

    /// Control bytes and terminal escape sequences in a string value, JSON-escaped or raw.
    mutating func escapeStrings(_ data: [UInt8]) -> [UInt8] {
        let document = JSONTree(data)
        let strings = document?.paths.filter { document?[path: $0].string != nil } ?? []
        guard let document, !strings.isEmpty else { return data + Array(random.pick(Self.hostileText).utf8) }
        let path = random.pick(strings)
        let text = (document[path: path].string ?? "") + random.pick(Self.hostileText)
        let raw = random.unit() < 0.7 ? JSONTree.quoted(text) : Array("\"\(text.filter { $0 != "\"" })\"".utf8)
        return Self.replaced(document, at: path, with: raw)
    }

    /// A date string (`1990-01-01`, `2026-09-04T12:00:00Z`) replaced by one at or past the calendar's ends.
    mutating func oddDate(_ data: [UInt8]) -> [UInt8] {
        let document = JSONTree(data)
        let dates =
            document?.paths.filter { path in
                guard let text = document?[path: path].string else { return false }
                let characters = Array(text)
                return characters.count >= 10 && characters[4] == "-" && characters[..<4].allSatisfy(\.isASCII)
                    && characters[..<4].allSatisfy(\.isNumber)
            } ?? []
        guard let document, !dates.isEmpty else { return hugeNumber(data) }
        return Self.replaced(document, at: random.pick(dates), with: JSONTree.quoted(random.pick(Self.oddDates)))
    }
}
