import FitIQCore
import FitIQTUI
import Testing

struct TextFieldTests {
    /// The keys a terminal sends for `text`, one Unicode scalar at a time (as ncurses delivers them).
    private static func scalarKeys(_ text: String) -> [Key] {
        text.unicodeScalars.map { .character(Character($0)) }
    }

    private static func typing(_ text: String, into field: TextField = TextField()) -> TextField {
        var field = field
        for key in scalarKeys(text) { field.handle(key) }
        return field
    }

    // MARK: Typing and deleting

    @Test(arguments: [
        ("e\u{0301}", "e\u{0301}", 1),  // a combining mark joins the letter before it
        ("🏃\u{200D}♀\u{FE0F}", "🏃‍♀️", 1),  // a ZWJ sequence typed scalar by scalar is one cluster
        ("李", "李", 1),
        ("José 李 🏃‍♀️", "José 李 🏃‍♀️", 8),
        ("a\u{0301}\u{0302}b", "a\u{0301}\u{0302}b", 2),
    ])
    func typesGraphemeClusters(typed: String, text: String, cursor: Int) {
        let field = Self.typing(typed)
        #expect(field.text == text)
        #expect(field.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(field.cursor == cursor)
    }

    @Test(arguments: [
        // initial text, keys, resulting text, cursor
        ("e\u{0301}", [Key.backspace], "", 0),
        ("a🏃‍♀️", [.backspace], "a", 1),
        ("李小", [.backspace], "李", 1),
        ("aé李🏃‍♀️", [.home, .delete, .delete], "李🏃‍♀️", 0),
        ("aé李🏃‍♀️", [.left, .left, .backspace], "a李🏃‍♀️", 1),
        ("abc", [.home, .backspace], "abc", 0),
        ("abc", [.delete], "abc", 3),
        ("ac", [.left, .character("b")], "abc", 2),
        ("李龍", [.left, .character("小")], "李小龍", 2),
        ("hello world", [.left, .left, .left, .left, .left, .control("u")], "world", 0),
        ("hello world", [.home, .right, .right, .right, .right, .right, .control("k")], "hello", 5),
        ("\u{0301}x", [.home, .character("e")], "e\u{0301}x", 1),  // the base absorbs the mark after it
    ])
    func editsAtTheCursorByGrapheme(initial: String, keys: [Key], text: String, cursor: Int) {
        var field = TextField(initial)
        for key in keys {
            let handled = field.handle(key)
            #expect(handled)
        }
        #expect(field.text.unicodeScalars.elementsEqual(text.unicodeScalars))
        #expect(field.cursor == cursor)
    }

    @Test(arguments: [
        ([Key.left], 4),
        ([.left, .left, .left, .left, .left, .left, .left], 0),
        ([.home], 0),
        ([.control("a")], 0),
        ([.home, .right], 1),
        ([.home, .right, .end], 5),
        ([.home, .control("e")], 5),
        ([.right, .right], 5),
    ])
    func movesTheCursorWithinTheText(keys: [Key], cursor: Int) {
        var field = TextField("aé李🏃‍♀️z")
        #expect(field.cursor == 5)
        for key in keys {
            let handled = field.handle(key)
            #expect(handled)
        }
        #expect(field.cursor == cursor)
    }

    @Test(arguments: [
        Key.tab, .backTab, .enter, .escape, .up, .down, .pageUp, .pageDown, .control("s"), .control("c"),
        .character("\u{1B}"), .character("\t"), .character("\u{07}"), .character("\u{7F}"), .character("\u{9B}"),
        .character("\u{202E}"), .character("\r\n"),
    ])
    func leavesOtherKeysToTheCaller(key: Key) {
        var field = TextField("abc")
        let handled = field.handle(key)
        #expect(!handled)
        #expect(field == TextField("abc"))
    }

    @Test func refusesTypingBeyondTheLimit() {
        // Given a field at its limit of three clusters
        var field = TextField("ab", limit: 3)
        let typed = field.handle(.character("李"))
        #expect(typed)
        // When more is typed, it is consumed (not a command) but refused
        let refused = field.handle(.character("d"))
        #expect(refused)
        #expect(field.text == "ab李")
        // Then a combining mark still joins the last cluster, since the count does not grow
        field.handle(.left)
        field.handle(.left)
        field.handle(.character("\u{0301}"))
        #expect(field.text.unicodeScalars.elementsEqual("a\u{0301}b李".unicodeScalars))
        #expect(field.cursor == 1)
        // And after deleting, typing works again
        field.handle(.backspace)
        field.handle(.character("x"))
        #expect(field.text == "xb李")
    }

    @Test func keepsLongerTextItWasGiven() {
        var field = TextField("abcdef", limit: 3)
        field.handle(.character("g"))
        #expect(field.text == "abcdef")
        field.handle(.backspace)
        #expect(field.text == "abcde")
    }

    @Test func clampsTheCursorWhenTheTextIsReplaced() {
        var field = TextField("hello")
        field.text = "hi"
        #expect(field.cursor == 2)
        field.cursor = 99
        #expect(field.cursor == 2)
        field.cursor = -3
        #expect(field.cursor == 0)
    }

    // MARK: Rendering

    private static func render(
        _ field: TextField, width: Int, masked: Bool = false, style: CellStyle = .plain
    ) -> (buffer: CellBuffer, cursor: Int) {
        // A marker on both sides shows that nothing is drawn outside the field.
        var buffer = CellBuffer(lines: [String(repeating: "#", count: width + 2)])
        let cursor = field.render(into: &buffer, x: 1, y: 0, width: width, style: style, masked: masked)
        return (buffer, cursor)
    }

    private static func field(_ text: String, cursor: Int) -> TextField {
        var field = TextField(text)
        field.cursor = cursor
        return field
    }

    @Test(arguments: [
        // text, cursor, width, what shows between the markers, cursor column (the field starts at 1)
        ("José", 4, 10, "José      ", 5),
        ("", 0, 5, "     ", 1),
        ("abcdefgh", 8, 5, "efgh ", 5),  // typing at the end shows the end of the text
        ("abcdefgh", 0, 5, "abcde", 1),
        ("abcdefgh", 3, 5, "abcde", 4),
        ("abcdefgh", 5, 5, "cdefg", 4),  // past the edge the view moves by half the width
        ("李李李李", 4, 5, "李李 ", 5),
        ("李李李李", 0, 5, "李李 ", 1),  // a wide character that does not fit is not split
        ("李李李李", 2, 5, "李李 ", 3),
        ("a李b🏃c", 2, 5, "a李b ", 4),
        ("a李b🏃c", 3, 5, "b🏃c ", 2),  // the cursor on 🏃 needs both of its columns
        ("a李b🏃c", 4, 5, "b🏃c ", 4),
        ("a李b🏃c", 5, 5, "b🏃c ", 5),
        ("李小龍李小龍", 6, 10, "龍李小龍  ", 9),
        ("李小龍李小龍", 0, 10, "李小龍李小", 1),
        ("李小龍李小龍", 5, 10, "龍李小龍  ", 7),
        ("e\u{0301}te\u{0301} 🏃‍♀️", 5, 10, "e\u{0301}te\u{0301} 🏃‍♀️    ", 7),
        ("abcdefghijkl", 12, 1, " ", 1),
        ("李李", 0, 1, " ", 1),
    ])
    func scrollsToKeepTheCursorVisible(text: String, cursor: Int, width: Int, shown: String, column: Int) {
        let (buffer, cursorColumn) = Self.render(Self.field(text, cursor: cursor), width: width)
        #expect(buffer == CellBuffer(lines: ["#" + shown + "#"]))
        #expect(cursorColumn == column)
    }

    @Test(arguments: [
        ("pässwörd", 8, 10, "••••••••  ", 9),
        ("e\u{0301}李🏃‍♀️", 3, 10, "•••       ", 4),
        ("abcdefghijkl", 12, 10, "••••••••• ", 10),
        ("abcdefghijkl", 0, 10, "••••••••••", 1),
    ])
    func masksOneBulletPerGrapheme(text: String, cursor: Int, width: Int, shown: String, column: Int) {
        let (buffer, cursorColumn) = Self.render(Self.field(text, cursor: cursor), width: width, masked: true)
        #expect(buffer == CellBuffer(lines: ["#" + shown + "#"]))
        #expect(cursorColumn == column)
    }

    @Test(arguments: [
        ("a\u{1B}[31mb\u{1B}[0m\tc", "ab c", 5),
        ("\u{1B}]0;pwned\u{07}x", "x", 2),
        ("bidi\u{202E}x", "bidix", 6),
        ("a\u{1B}[2J", "a", 2),
    ])
    func sanitizesTextItWasGiven(text: String, shown: String, column: Int) {
        let field = TextField(text)
        let (buffer, cursorColumn) = Self.render(field, width: 10)
        #expect(buffer.reads(["#" + shown.padding(toLength: 10, withPad: " ", startingAt: 0) + "#"]))
        #expect(cursorColumn == column)
        #expect(!buffer.cells.contains { TextSanitizer.containsControls(String($0.character)) && !$0.isContinuation })
        // Moving through the hidden sequence never draws it either.
        var moved = field
        for _ in 0...text.count {
            moved.handle(.left)
            let (movedBuffer, movedColumn) = Self.render(moved, width: 10)
            #expect(movedBuffer.reads(["#" + shown.padding(toLength: 10, withPad: " ", startingAt: 0) + "#"]))
            #expect((1...column).contains(movedColumn))
        }
    }

    @Test func fillsTheFieldInItsStyle() {
        let style = CellStyle(.reverse, color: .accent)
        let (buffer, _) = Self.render(TextField("李a"), width: 6, style: style)
        #expect(buffer.reads(["#李a   #"]))
        for column in 1...6 where !buffer[column, 0].isContinuation {
            #expect(buffer[column, 0].style == style)
        }
        #expect(buffer[0, 0].style == .plain && buffer[7, 0].style == .plain)
    }

    @Test func drawsNothingWithoutWidth() {
        var buffer = CellBuffer(lines: ["####"])
        let column = TextField("abc").render(into: &buffer, x: 2, y: 0, width: 0, style: .plain)
        #expect(column == 2)
        #expect(buffer == CellBuffer(lines: ["####"]))
    }
}
