// The functions that mark a message for translation. Their names and argument positions are the
// extraction keywords of the template (scripts/po/extract.sh): `tr:1`, `trc:1c,2`, `trn:1,2`, `Phrase:1`.
// A message is a string literal (the parameter is a `StaticString`, so no interpolation can slip in);
// what varies goes into `{name}` placeholders, filled in after the lookup, so a translation may move
// them. Never a multi-line or raw literal: the extractor reads C string syntax.

/// `id` in the current language, its `{placeholders}` filled in from `values`:
/// `tr("Saved {field}.", ["field": label])`.
public func tr(_ id: StaticString, _ values: [String: String] = [:]) -> String {
    fill(Localizer.current.text(id.description), values)
}

/// `tr` for a message whose English text alone is ambiguous: `trc("box title", "Profile")`.
public func trc(_ context: StaticString, _ id: StaticString, _ values: [String: String] = [:]) -> String {
    fill(Localizer.current.text(id.description, context: context.description), values)
}

/// The form of a message with a plural for `count`; `{count}` is `count` unless `values` names it.
public func trn(
    _ singular: StaticString, _ plural: StaticString, count: Int, _ values: [String: String] = [:]
) -> String {
    let text = Localizer.current.text(singular.description, plural: plural.description, count: count)
    return fill(text, values, count: count)
}

/// A message kept to be said later in the language then in force (the help of a key, the title of a
/// box, why a request failed): `Phrase("next field").text`. Its placeholders' values are kept with it;
/// they are never translated (a proxy's name, a system's own words).
public struct Phrase: Sendable, Hashable, Codable {
    /// The English text, the catalog's key (the text itself for ``verbatim(_:)``).
    public let id: String
    /// What fills its placeholders.
    public let values: [String: String]
    /// Words of another system (a library's error text), shown as they are and never looked up.
    public let isVerbatim: Bool

    public init(_ id: StaticString, _ values: [String: String] = [:]) {
        self.id = id.description
        self.values = values
        isVerbatim = false
    }

    /// `text`, as it is in every language.
    public static func verbatim(_ text: String) -> Phrase { Phrase(verbatim: text) }

    private init(verbatim text: String) {
        id = text
        values = [:]
        isVerbatim = true
    }

    /// The message in the current language.
    public var text: String { isVerbatim ? id : fill(Localizer.current.text(id), values) }

    /// The message in the current language, its placeholders filled in (`values` before those kept).
    public func text(_ values: [String: String]) -> String {
        isVerbatim ? id : fill(Localizer.current.text(id), values.merging(self.values) { given, _ in given })
    }
}

/// `template` with each `{name}` replaced by its value (`{{` and `}}` are braces); a placeholder
/// without a value stays as written.
func fill(_ template: String, _ values: [String: String], count: Int? = nil) -> String {
    guard template.contains("{") || template.contains("}") else { return template }
    var result = ""
    var index = template.startIndex
    while index < template.endIndex {
        let character = template[index]
        let next = template.index(after: index)
        if character == "{", next < template.endIndex, template[next] == "{" {
            result.append("{")
            index = template.index(after: next)
        } else if character == "}", next < template.endIndex, template[next] == "}" {
            result.append("}")
            index = template.index(after: next)
        } else if character == "{", let close = template[next...].firstIndex(of: "}") {
            let name = template[next..<close]
            if let value = values[String(name)] {
                result += value
            } else if name == "count", let count {
                result += String(count)
            } else {
                result += template[index...close]
            }
            index = template.index(after: close)
        } else {
            result.append(character)
            index = next
        }
    }
    return result
}
