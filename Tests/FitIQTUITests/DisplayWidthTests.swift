import Testing

@testable import FitIQTUI

/// Columns per character, as terminals count them: the quick answer for common text (ASCII, Latin,
/// box drawing, braille) must agree with the Unicode tables, which decide the rest.
struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("\u{AD}", 0), ("\u{A0}", 1), ("ß", 1), ("│", 1), ("┤", 1), ("⠉", 1),
        ("⣿", 1), ("▀", 1), ("·", 1), ("李", 2), ("😀", 2), ("©", 1), ("©\u{FE0F}", 2), ("\u{200B}", 0),
        ("\u{301}", 0), ("\u{7F}", 0), ("\u{1}", 0),
    ])
    func aCharacterTakesTheColumnsATerminalGivesIt(text: String, columns: Int) throws {
        let character = try #require(text.first)
        #expect(DisplayWidth.of(character) == columns, "\(text.unicodeScalars.map { $0.value })")
    }

    @Test func textTakesTheSumOfItsCharacters() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("72.4 kg") == 7)
        #expect(DisplayWidth.of("72,4\u{A0}kg") == 7)
        #expect(DisplayWidth.of("a李b") == 4)
        #expect(DisplayWidth.of("Größe · 李") == 10)
        #expect(DisplayWidth.of("tab\there") == 7, "a control character takes no column")
    }
}
