import FitIQTUI
import Testing

@testable import NcursesTerminal

struct CellGlyphTests {
    /// A stand-in for glibc's `wcwidth` in a UTF-8 locale, for the scalars these tests use.
    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.value {
        case 0..<0x20, 0x7F: -1
        case 0x301, 0x200D, 0xFE0F: 0
        case 0x674E, 0x5B57, 0x1F3C3: 2
        default: 1
        }
    }

    private func glyph(_ buffer: CellBuffer, x: Int, y: Int = 0, screenWidth: Int = 80) -> CellGlyph? {
        CellGlyph.at(x: x, y: y, in: buffer, screenWidth: screenWidth, columnsOf: Self.columns)
    }

    @Test func aNarrowCharacterIsWrittenAsIs() {
        let style = CellStyle(.bold, color: .accent)
        var buffer = CellBuffer(width: 3, height: 1)
        buffer.put("a", x: 0, y: 0, style: style)
        #expect(glyph(buffer, x: 0) == CellGlyph(scalars: ["a"], columns: 1, style: style))
    }

    @Test func aWideCharacterTakesTwoColumnsAndItsRightHalfIsSkipped() {
        let buffer = CellBuffer(lines: ["李x"])
        #expect(glyph(buffer, x: 0) == CellGlyph(scalars: ["李"], columns: 2, style: .plain))
        #expect(glyph(buffer, x: 1) == nil)
    }

    @Test func aClusterIsWrittenTogether() {
        let buffer = CellBuffer(lines: ["e\u{301}"])
        #expect(glyph(buffer, x: 0)?.scalars == ["e", "\u{301}"])
    }

    @Test func aNarrowCharacterBeforeARightHalfIsPaddedOverBothColumns() {
        // Given 李, when only the left half is overwritten with "a", "a " covers the orphaned right half.
        var buffer = CellBuffer(lines: ["李x"])
        buffer[0, 0] = Cell("a")
        #expect(glyph(buffer, x: 0) == CellGlyph(scalars: ["a", " "], columns: 2, style: .plain))
        #expect(glyph(buffer, x: 1) == nil)
    }

    @Test func aRightHalfWithoutALeftHalfIsASpace() {
        var buffer = CellBuffer(width: 2, height: 1)
        buffer[0, 0] = .continuation
        buffer[1, 0] = .continuation
        #expect(glyph(buffer, x: 0) == CellGlyph(scalars: [" "], columns: 1, style: .plain))
        #expect(glyph(buffer, x: 1) == CellGlyph(scalars: [" "], columns: 1, style: .plain))
    }

    @Test func aWideCharacterWithoutItsRightHalfIsReplaced() {
        var buffer = CellBuffer(lines: ["李x"])
        buffer[1, 0] = Cell("y")
        #expect(glyph(buffer, x: 0)?.scalars == ["\u{FFFD}"])
    }

    @Test func aWideCharacterCutByTheScreenEdgeIsASpace() {
        let buffer = CellBuffer(lines: ["ab李"])
        #expect(glyph(buffer, x: 2, screenWidth: 3) == CellGlyph(scalars: [" "], columns: 1, style: .plain))
        #expect(glyph(buffer, x: 3, screenWidth: 3) == nil)
    }

    @Test func cellsBeyondTheScreenAreNotWritten() {
        #expect(glyph(CellBuffer(lines: ["abcdef"]), x: 4, screenWidth: 4) == nil)
    }

    @Test func anEmojiThatWcwidthCallsNarrowIsPaddedToTwoColumns() {
        // ❤️: DisplayWidth gives 2 (VS16), wcwidth(❤) is 1; the selector goes, a space fills the column.
        let buffer = CellBuffer(lines: ["❤️|"])
        #expect(glyph(buffer, x: 0)?.scalars == ["❤", " "])
    }

    @Test func aZWJSequenceKeepsItsFirstEmoji() {
        let buffer = CellBuffer(lines: ["🏃‍♂️|"])
        #expect(glyph(buffer, x: 0)?.scalars == ["🏃"])
    }

    @Test(arguments: ["\u{7}", "\u{301}"] as [Character])
    func unprintableAndLoneMarksAreReplaced(character: Character) {
        var buffer = CellBuffer(width: 1, height: 1)
        buffer[0, 0] = Cell(character)
        #expect(glyph(buffer, x: 0)?.scalars == ["\u{FFFD}"])
    }

    @Test func theReplacementFallsBackToAQuestionMark() {
        #expect(
            CellGlyph.scalars(for: "\u{7}", columns: 1, columnsOf: { $0.isASCII && $0.value >= 0x20 ? 1 : -1 }) == ["?"]
        )
    }
}
