import FitIQCatalogs
import Foundation
import Testing

@testable import FitIQLocalization

/// The code, the template and the catalogs agree: every message the code says is in `po/fitiq-tui.pot`
/// and nothing else is; every catalog translates every message, keeps its placeholders and has as many
/// plural forms as its header says. (scripts/po/check.sh checks the same with xgettext and msgfmt in
/// `make test`; this reads the code with a lexer of its own, so a message xgettext misreads fails here.)
struct CatalogCompletenessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func template() throws -> [POReader.RawEntry] {
        let text = try String(contentsOf: root.appending(path: "po/fitiq-tui.pot"), encoding: .utf8)
        return POReader.entries(in: text).filter { !$0.id.isEmpty }
    }

    struct Message: Hashable, CustomStringConvertible {
        var context: String?
        var id: String
        var plural: String?
        var description: String { (context.map { "[\($0)] " } ?? "") + id + (plural.map { " | \($0)" } ?? "") }
    }

    @Test func theTemplateHoldsExactlyTheMessagesOfTheCode() throws {
        let sources = try FileManager.default.subpathsOfDirectory(atPath: Self.root.appending(path: "Sources").path)
            .filter { $0.hasSuffix(".swift") }
        var inCode = Set<Message>()
        for path in sources {
            let text = try String(contentsOf: Self.root.appending(path: "Sources/" + path), encoding: .utf8)
            inCode.formUnion(MessageScanner.messages(in: text))
        }
        let inTemplate = Set(try Self.template().map { Message(context: $0.context, id: $0.id, plural: $0.plural) })
        #expect(inCode.subtracting(inTemplate).map(\.description).sorted() == [], "in the code, not the template")
        #expect(inTemplate.subtracting(inCode).map(\.description).sorted() == [], "in the template, not the code")
        #expect(inCode.count > 100)
    }

    @Test(arguments: ["de", "es", "fr", "pt_BR"])
    func everyCatalogTranslatesEveryMessageKeepingItsPlaceholders(code: String) throws {
        let text = try String(contentsOf: Self.root.appending(path: "po/\(code).po"), encoding: .utf8)
        let catalog = Catalog(po: text)
        let template = try Self.template()
        var missing: [String] = []
        var placeholders: [String] = []
        for message in template {
            let key = Catalog.Key(context: message.context, message.id)
            guard let entry = catalog.entries[key], entry.plural == message.plural else {
                missing.append(message.id)
                continue
            }
            let expected = Self.placeholders(message.id).union(Self.placeholders(message.plural ?? ""))
            for form in entry.forms
            where Self.placeholders(form).subtracting(["count"]) != expected.subtracting(["count"]) {
                placeholders.append("\(message.id) → \(form)")
            }
        }
        #expect(missing == [])
        #expect(placeholders == [])
        #expect(catalog.entries.count == template.count, "entries the template lacks")
        #expect(Catalogs.embedded.codes.contains(code))
    }

    @Test(arguments: ["de", "es", "fr", "pt_BR"])
    func everyCatalogNamesItsRegisterAndItsTerms(code: String) throws {
        let text = try String(contentsOf: Self.root.appending(path: "po/\(code).po"), encoding: .utf8)
        let head = text.components(separatedBy: "\nmsgid").first ?? ""
        #expect(head.contains("# Register:"))
        for term in ["weight", "body fat", "trend", "goal", "sync", "pending", "conflict", "health source"] {
            #expect(head.contains("#   \(term) "), "\(term)")
        }
    }

    @Test func theEmbeddedCatalogsReadAsTheFilesDo() throws {
        for code in ["de", "es", "fr", "pt_BR"] {
            let text = try String(contentsOf: Self.root.appending(path: "po/\(code).po"), encoding: .utf8)
            let localizer = Catalogs.embedded.localizer(Language(code: code))
            #expect(localizer.language.code == code)
            let file = Catalog(po: text)
            #expect(file.entries.count > 100)
            for (key, entry) in file.entries where entry.plural == nil && key.context == nil {
                #expect(localizer.text(key.id) == entry.forms[0])
            }
        }
    }

    static func placeholders(_ text: String) -> Set<String> {
        var names = Set<String>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            guard let close = rest.firstIndex(of: "}") else { break }
            let name = rest[..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "_" }) { names.insert(String(name)) }
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

/// Finds the messages of Swift source: the string literals passed to `tr`, `trc`, `trn` and `Phrase`,
/// outside comments and other literals.
enum MessageScanner {
    static func messages(in text: String) -> [CatalogCompletenessTests.Message] {
        let characters = Array(text.unicodeScalars)
        var found: [CatalogCompletenessTests.Message] = []
        var index = 0
        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func isIdentifier(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        /// A one-line literal at `index` (at its opening quote), decoded; `index` ends after it.
        func literal() -> String? {
            guard peek() == "\"", peek(1) != "\"" || peek(2) != "\"" else { return nil }
            index += 1
            var result = String.UnicodeScalarView()
            while let scalar = peek(), scalar != "\"", scalar != "\n" {
                index += 1
                guard scalar == "\\", let escaped = peek() else {
                    result.append(scalar)
                    continue
                }
                index += 1
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                default: result.append(escaped)
                }
            }
            index += 1
            return String(result)
        }
        func skipSpaces() {
            while let scalar = peek(), scalar == " " || scalar == "\n" || scalar == "\t" { index += 1 }
        }
        func skipLiteral() {
            // `"""…"""`, `#"…"#` and `"…"`, as they are, without looking inside.
            var hashes = 0
            while peek() == "#" {
                hashes += 1
                index += 1
            }
            let closing: [Unicode.Scalar]
            if peek() == "\"", peek(1) == "\"", peek(2) == "\"" {
                index += 3
                closing = ["\"", "\"", "\""] + Array(repeating: "#", count: hashes)
            } else {
                index += 1
                closing = ["\""] + Array(repeating: "#", count: hashes)
            }
            while index < characters.count {
                if hashes == 0, peek() == "\\" {
                    index += 2
                    continue
                }
                if Array(characters[index..<min(characters.count, index + closing.count)]) == closing {
                    index += closing.count
                    return
                }
                index += 1
            }
        }
        while index < characters.count {
            let scalar = characters[index]
            if scalar == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" { index += 1 }
                continue
            }
            if scalar == "/", peek(1) == "*" {
                index += 2
                while index < characters.count, !(peek() == "*" && peek(1) == "/") { index += 1 }
                index += 2
                continue
            }
            if scalar == "#", peek(1) == "/" {
                // An extended regex literal (`#/…/#`) may hold quotes.
                index += 2
                while index < characters.count, !(peek() == "/" && peek(1) == "#") { index += 1 }
                index += 2
                continue
            }
            if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) {
                skipLiteral()
                continue
            }
            guard isIdentifier(scalar), !isIdentifier(index > 0 ? characters[index - 1] : nil) else {
                index += 1
                continue
            }
            var name = ""
            while isIdentifier(peek()), let next = peek() {
                name.unicodeScalars.append(next)
                index += 1
            }
            guard ["tr", "trc", "trn", "Phrase"].contains(name), peek() == "(" else { continue }
            index += 1
            skipSpaces()
            guard let first = literal() else { continue }
            switch name {
            case "trc", "trn":
                skipSpaces()
                guard peek() == "," else { continue }
                index += 1
                skipSpaces()
                guard let second = literal() else { continue }
                found.append(
                    name == "trc"
                        ? .init(context: first, id: second, plural: nil)
                        : .init(context: nil, id: first, plural: second))
            default:
                found.append(.init(context: nil, id: first, plural: nil))
            }
        }
        return found
    }
}
