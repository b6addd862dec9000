import FitIQCore

/// A one-line text editor: the text, a cursor between grapheme clusters and an optional length limit.
///
/// Every position counts grapheme clusters (what the user sees as one character), so `é` typed as
/// `e` + U+0301, `李` and `🏃‍♀️` each take one step of the cursor and one backspace. Drawing is in
/// `TextField+Render.swift`.
public struct TextField: Equatable, Sendable {
    /// The text being edited, exactly as typed (or as given); sanitized only when drawn.
    public var text: String {
        didSet { cursor = min(cursor, text.count) }
    }

    /// The cursor as a grapheme-cluster index in `0...text.count`; out-of-range values are clamped.
    public var cursor: Int {
        didSet { cursor = max(0, min(cursor, text.count)) }
    }

    /// The most grapheme clusters typing may produce; `nil` for no limit. Longer text given at
    /// creation is kept, but nothing more can be typed until it is shorter.
    public var limit: Int?

    /// A field holding `text`, with the cursor at its end.
    public init(_ text: String = "", limit: Int? = nil) {
        self.text = text
        self.cursor = text.count
        self.limit = limit
    }

    /// Applies `key`; returns `false` for keys the field does not handle (Tab, Enter, Esc, ↑↓, other
    /// Ctrl keys, control characters), so the caller acts on them.
    ///
    /// A printable character refused because of ``limit`` still returns `true`: it belongs to the
    /// field and must not be read as a command.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            guard Self.isPrintable(character) else { return false }
            insert(character)
        case .backspace:
            guard cursor > 0 else { return true }
            cursor -= 1
            text.remove(at: stringIndex(cursor))
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: stringIndex(cursor))
        case .left: cursor -= 1
        case .right: cursor += 1
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .control("u"):
            text.removeSubrange(text.startIndex..<stringIndex(cursor))
            cursor = 0
        case .control("k"):
            text.removeSubrange(stringIndex(cursor)...)
        case .control("w"): deleteWordBefore()
        case .wordLeft: moveWordLeft()
        case .wordRight: moveWordRight()
        default:
            return false
        }
        return true
    }

    /// Whether `character` may be typed: no control characters, escape sequences or bidi overrides.
    static func isPrintable(_ character: Character) -> Bool {
        !TextSanitizer.containsControls(String(character))
            && !character.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Inserts at the cursor and moves the cursor after what was typed.
    private mutating func insert(_ character: Character) {
        let before = text[..<stringIndex(cursor)]
        let updated = String(before) + String(character) + String(text[stringIndex(cursor)...])
        if let limit, updated.count > limit, updated.count > text.count { return }
        // A combining mark joins the cluster before it (and a base character may absorb marks after
        // it), so the new cursor is the first cluster boundary at or after the inserted scalars.
        let target = before.unicodeScalars.count + character.unicodeScalars.count
        var scalars = 0
        var position = 0
        for cluster in updated where scalars < target {
            scalars += cluster.unicodeScalars.count
            position += 1
        }
        text = updated
        cursor = position
    }

    /// The string index of grapheme `offset` (clamped to the text).
    func stringIndex(_ offset: Int) -> String.Index {
        text.index(text.startIndex, offsetBy: max(0, min(offset, text.count)))
    }
}
