/// The translations of one language, read from the text of a gettext `.po` file.
///
/// The reader is total: a line it does not understand is skipped, an entry with a missing or empty
/// translation is left out (the English text shows), fuzzy and obsolete entries are left out as gettext
/// leaves them out, and a `Plural-Forms` header that does not parse drops the plural entries (English
/// shows for those). No catalog text can make it crash.
public final class Catalog: Sendable {
    /// One message's identity: its context (`msgctxt`), if any, and its English text (`msgid`).
    public struct Key: Sendable, Hashable {
        public let context: String?
        public let id: String

        public init(context: String? = nil, _ id: String) {
            self.context = context
            self.id = id
        }
    }

    /// A translated entry: its forms (one for a message without plural).
    public struct Entry: Sendable, Equatable {
        public let plural: String?
        public let forms: [String]
    }

    /// The entries by key (translated ones only).
    public let entries: [Key: Entry]
    /// The plural rule of the header; ``PluralRule/germanic`` when the header names none.
    public let pluralRule: PluralRule
    /// The header's fields (`Language`, `Plural-Forms`, …).
    public let header: [String: String]

    /// Reads the text of a `.po` file.
    public init(po text: String) {
        let parsed = POReader.entries(in: text)
        var header: [String: String] = [:]
        if let headerEntry = parsed.first(where: { $0.context == nil && $0.id.isEmpty }),
            let text = headerEntry.forms.first
        {
            for line in text.split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingSpaces
                header[String(name)] = String(line[line.index(after: colon)...].trimmingSpaces)
            }
        }
        let declared = header["Plural-Forms"]
        let rule = declared.map { PluralRule(header: $0) } ?? .germanic
        var entries: [Key: Entry] = [:]
        for entry in parsed where !entry.id.isEmpty && !entry.isFuzzy {
            let key = Key(context: entry.context, entry.id)
            if let plural = entry.plural {
                guard let rule, entry.forms.count == rule.count, entry.forms.allSatisfy({ !$0.isEmpty }) else {
                    continue
                }
                entries[key] = Entry(plural: plural, forms: entry.forms)
            } else if let form = entry.forms.first, entry.forms.count == 1, !form.isEmpty {
                entries[key] = Entry(plural: nil, forms: [form])
            }
        }
        self.entries = entries
        self.header = header
        self.pluralRule = rule ?? .germanic
    }

    /// The translation of `key`, or `nil`.
    public func text(_ key: Key) -> String? {
        guard let entry = entries[key], entry.plural == nil else { return nil }
        return entry.forms.first
    }

    /// The form of `key` for `count`, or `nil` when the catalog has none.
    public func text(_ key: Key, count: Int) -> String? {
        guard let entry = entries[key], entry.plural != nil, let form = pluralRule.form(for: count),
            form < entry.forms.count
        else { return nil }
        return entry.forms[form]
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

/// The entries of a `.po` file as written: context, msgid, plural and the msgstr forms, with their flags.
/// Tolerant: text it does not understand is skipped.
package enum POReader {
    package struct RawEntry: Sendable, Equatable {
        package var context: String?
        package var id = ""
        package var plural: String?
        package var forms: [String] = []
        package var flags: Set<String> = []
        package var isFuzzy: Bool { flags.contains("fuzzy") }
    }

    private enum Part { case context, id, plural, form(Int) }

    package static func entries(in text: String) -> [RawEntry] {
        var entries: [RawEntry] = []
        var current = RawEntry()
        var hasID = false
        var part: Part?
        var flags: Set<String> = []
        var forms: [Int: String] = [:]

        func finish() {
            if hasID {
                current.flags = flags
                let highest = forms.keys.max() ?? -1
                current.forms = highest < 0 ? [] : (0...highest).map { forms[$0] ?? "" }
                entries.append(current)
            }
            current = RawEntry()
            hasID = false
            part = nil
            flags = []
            forms = [:]
        }

        // "\r\n" is one Character: split on both.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            var line = Substring(rawLine)
            if line.last == "\r" { line.removeLast() }
            line = line.trimmingSpaces
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                // A comment starts the next entry once this one has its translation.
                if hasID && !forms.isEmpty { finish() }
                if line.hasPrefix("#,") {
                    for flag in line.dropFirst(2).split(separator: ",") { flags.insert(String(flag.trimmingSpaces)) }
                }
                continue
            }
            if line.hasPrefix("\"") {
                guard let piece = literal(line) else { continue }
                switch part {
                case .context: current.context = (current.context ?? "") + piece
                case .id: current.id += piece
                case .plural: current.plural = (current.plural ?? "") + piece
                case .form(let index): forms[index, default: ""] += piece
                case nil: continue
                }
                continue
            }
            guard let space = line.firstIndex(where: { $0 == " " || $0 == "\t" }),
                let piece = literal(line[space...].trimmingSpaces)
            else { continue }
            let keyword = line[..<space]
            switch keyword {
            case "msgctxt":
                if hasID || current.context != nil { finish() }
                current.context = piece
                part = .context
            case "msgid":
                if hasID { finish() }
                current.id = piece
                hasID = true
                part = .id
            case "msgid_plural" where hasID:
                current.plural = piece
                part = .plural
            case "msgstr" where hasID:
                forms[0] = piece
                part = .form(0)
            default:
                guard hasID, keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                    let index = Int(keyword.dropFirst(7).dropLast()), (0..<16).contains(index)
                else {
                    part = nil
                    continue
                }
                forms[index] = piece
                part = .form(index)
            }
        }
        finish()
        return entries
    }

    /// The text of a quoted C string (`"a\tb\"c"`), its escapes decoded; `nil` when it is not one.
    package static func literal(_ text: Substring) -> String? {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        var scalars = Array(text.unicodeScalars.dropFirst().dropLast())
        var result = String.UnicodeScalarView()
        var index = 0
        // The octal and hex escapes are bytes; a run of them is decoded as UTF-8 together.
        var bytes: [UInt8] = []
        func flushBytes() {
            guard !bytes.isEmpty else { return }
            result.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
            bytes = []
        }
        if scalars.last == "\\" && (scalars.count < 2 || scalars[scalars.count - 2] != "\\") { scalars.removeLast() }
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard scalar == "\\", index < scalars.count else {
                flushBytes()
                result.append(scalar)
                continue
            }
            let escaped = scalars[index]
            index += 1
            switch escaped {
            case "0"..."7":
                var value = UInt32(escaped.value - 48)
                var digits = 1
                while digits < 3, index < scalars.count, ("0"..."7").contains(scalars[index]) {
                    value = value * 8 + scalars[index].value - 48
                    index += 1
                    digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
                continue
            case "x":
                var value: UInt32 = 0
                var digits = 0
                while digits < 2, index < scalars.count, let digit = hexValue(scalars[index]) {
                    value = value * 16 + digit
                    index += 1
                    digits += 1
                }
                bytes.append(UInt8(truncatingIfNeeded: value))
                continue
            default:
                flushBytes()
            }
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "a": result.append("\u{07}")
            case "b": result.append("\u{08}")
            case "f": result.append("\u{0C}")
            case "v": result.append("\u{0B}")
            default: result.append(escaped)
            }
        }
        flushBytes()
        return String(result)
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }
}
