import CNcurses
import FitIQTUI
import Testing

@testable import NcursesTerminal

struct KeyDecoderTests {
    private let size = (width: 100, height: 30)

    private func decode(_ reads: [RawRead]) -> [TerminalInput] {
        KeyDecoder.decode(reads, size: size)
    }

    @Test(
        arguments: [
            (13, Key.enter), (10, .enter), (9, .tab), (127, .backspace), (8, .backspace), (27, .escape),
            (1, .control("a")), (3, .control("c")), (17, .control("q")), (19, .control("s")), (26, .control("z")),
            (0x41, .character("A")), (0x20, .character(" ")), (0xE9, .character("é")), (0x674E, .character("李")),
            (0x1F3C3, .character("🏃")),
        ] as [(UInt32, Key)])
    func decodesCharacterReads(value: UInt32, key: Key) {
        #expect(decode([.character(value)]) == [.key(key)])
    }

    @Test(arguments: [0, 28, 31, 0x85, 0x9B, 0xD800, 0xFFFF, 0x11_0000] as [UInt32])
    func dropsControlsAndInvalidScalars(value: UInt32) {
        #expect(decode([.character(value)]) == [])
    }

    @Test(
        arguments: [
            (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_HOME, .home),
            (KEY_END, .end), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_DC, .delete),
            (KEY_BACKSPACE, .backspace), (KEY_BTAB, .backTab), (KEY_ENTER, .enter),
        ] as [(Int32, Key)])
    func decodesFunctionKeys(code: Int32, key: Key) {
        #expect(decode([.keyCode(code)]) == [.key(key)])
    }

    @Test func aMouseReportKeepsItsPlaceAmongTheKeysOfItsBatch() {
        let click = MouseReport(.click, x: 239, y: 4)
        let reads = KeyDecoder.scalars(from: [.byte(0x61), .mouse(click), .byte(0xC3), .byte(0xA9), .keyCode(KEY_UP)])
        #expect(decode(reads) == [.key(.character("a")), .mouse(click), .key(.character("é")), .key(.up)])
        // Inside a paste nothing is a key, nor a click.
        let paste = KeyDecoder.pasteStart.map { RawRead.character($0) }
        let pasted =
            KeyDecoder.scalars(from: [.mouse(click)]) + "x\u{1B}[201~".unicodeScalars.map { .character($0.value) }
        #expect(decode(paste + pasted) == [.paste("x")])
    }

    @Test func dropsFunctionKeysTheUIDoesNotUse() {
        #expect(decode([.keyCode(KEY_F0 + 1), .keyCode(KEY_IC), .keyCode(KEY_MOUSE)]) == [])
    }

    @Test func resizeReportsTheScreenSizeAndABurstIsOneResize() {
        #expect(decode([.keyCode(KEY_RESIZE)]) == [.resize(width: 100, height: 30)])
        #expect(
            decode([.keyCode(KEY_RESIZE), .keyCode(KEY_RESIZE), .character(0x61), .keyCode(KEY_RESIZE)])
                == [.resize(width: 100, height: 30), .key(.character("a")), .resize(width: 100, height: 30)])
    }

    @Test func escapeAloneIsTheEscapeKey() {
        #expect(decode([.character(27)]) == [.key(.escape)])
    }

    @Test func escapeFollowedAtOnceByAKeyIsAltAndNotEscape() {
        // Alt-x: ESC x in one batch; the UI has no Alt keys, so neither Escape nor "x" is reported.
        #expect(decode([.character(27), .character(0x78)]) == [])
        #expect(decode([.character(27), .character(0x78), .character(0x79)]) == [.key(.character("y"))])
    }

    @Test func unknownEscapeSequencesAreDroppedWhole() {
        // (The bracketed paste start, `[200~`, was the example here; it is known now: see the paste tests.)
        let csi = Array("[15~".unicodeScalars.map(\.value))  // F5 without terminfo's kf5
        #expect(decode([.character(27)] + csi.map(RawRead.character) + [.character(0x61)]) == [.key(.character("a"))])
        let ss3 = [27, 0x4F, 0x4D] as [UInt32]  // keypad Enter without terminfo's kent
        #expect(decode(ss3.map(RawRead.character)) == [])
    }

    /// `text` as the terminal sends it inside bracketed paste markers.
    static func bracketed(_ text: String) -> [RawRead] {
        ("\u{1B}[200~" + text + "\u{1B}[201~").unicodeScalars.map { RawRead.character($0.value) }
    }

    @Test func aBracketedPasteIsTextNeverKeys() {
        let pasted = "Runner from Porto.\r\nLoves hills.\tq x h"
        #expect(decode(Self.bracketed(pasted)) == [.paste(pasted)])
        // Keys typed after the paste are keys again.
        #expect(decode(Self.bracketed("a") + [.character(0x71)]) == [.paste("a"), .key(.character("q"))])
    }

    @Test func aPasteSpreadOverSeveralBatchesIsOnePaste() {
        let reads = Self.bracketed("one two three")
        var state = KeyDecoder.State()
        var inputs: [TerminalInput] = []
        // Cut everywhere, even inside the end marker.
        for cut in stride(from: 0, to: reads.count, by: 4) {
            let batch = Array(reads[cut..<min(reads.count, cut + 4)])
            inputs += KeyDecoder.decode(batch, size: (80, 24), state: &state, keyName: { _ in nil })
        }
        #expect(inputs == [.paste("one two three")])
        #expect(state == KeyDecoder.State())
    }

    @Test func altBAndAltFAndModifiedArrowsMoveByWord() {
        #expect(decode([.character(27), .character(0x62)]) == [.key(.wordLeft)])
        #expect(decode([.character(27), .character(0x66)]) == [.key(.wordRight)])
        let ctrlLeft = Array("\u{1B}[1;5D".unicodeScalars.map { RawRead.character($0.value) })
        let altRight = Array("\u{1B}[1;3C".unicodeScalars.map { RawRead.character($0.value) })
        #expect(decode(ctrlLeft) == [.key(.wordLeft)])
        #expect(decode(altRight) == [.key(.wordRight)])
        // ncurses' own codes for them, known by their terminfo names.
        let named = KeyDecoder.decode(
            [.keyCode(560), .keyCode(575)], size: (80, 24), keyName: { [560: "kLFT5", 575: "kRIT5"][$0] })
        #expect(named == [.key(.wordLeft), .key(.wordRight)])
    }

    @Test func escapeBeforeAFunctionKeyKeepsTheKey() {
        #expect(decode([.character(27), .keyCode(KEY_UP)]) == [.key(.up)])
    }

    @Test func combiningMarksJoinTheirBaseCharacter() {
        #expect(decode([.character(0x65), .character(0x301)]) == [.key(.character("e\u{301}"))])
        let runner = [0x1F3C3, 0x200D, 0x2642, 0xFE0F] as [UInt32]
        #expect(decode(runner.map(RawRead.character)) == [.key(.character("🏃‍♂️"))])
    }

    @Test func textInABatchStaysInOrderAroundKeys() {
        let reads: [RawRead] = [
            .character(0x61), .character(9), .character(0x674E), .keyCode(KEY_LEFT), .character(0x62),
        ]
        #expect(
            decode(reads) == [
                .key(.character("a")), .key(.tab), .key(.character("李")), .key(.left), .key(.character("b")),
            ])
    }

    @Test func bytesBecomeScalarsAndKeyCodesStayInPlace() {
        let bytes = Array("aé李🏃".utf8).map(ByteRead.byte)
        #expect(
            KeyDecoder.scalars(from: bytes + [.keyCode(KEY_LEFT), .byte(13)])
                == "aé李🏃".unicodeScalars.map { RawRead.character($0.value) } + [.keyCode(KEY_LEFT), .character(13)])
    }

    @Test func bytesThatAreNotUTF8AreDroppedAndTheKeysAfterThemKept() {
        // "Ana ", two bytes no UTF-8 text has, "B", Enter; then a Latin-1 é (one byte) before "x".
        let reads = ([0x41, 0x6E, 0x61, 0x20, 0xFF, 0xFE, 0x42, 0x0D, 0xE9, 0x78] as [UInt8]).map(ByteRead.byte)
        #expect(
            decode(KeyDecoder.scalars(from: reads)) == [
                .key(.character("A")), .key(.character("n")), .key(.character("a")), .key(.character(" ")),
                .key(.character("B")), .key(.enter), .key(.character("x")),
            ])
    }

    @Test(
        arguments: [
            ([0xE6], 2), ([0xE6, 0x9D], 1), ([0xE6, 0x9D, 0x8E], 0), ([0xF0, 0x9F, 0x8F], 1), ([0xC3], 1),
            ([0x41], 0), ([0xFF], 0), ([0x80, 0x80, 0x80, 0x80], 0),
        ] as [([UInt8], Int)])
    func aCharacterCutOffAtTheEndOfABatchIsWaitedFor(bytes: [UInt8], missing: Int) {
        #expect(KeyDecoder.missingBytes(bytes.map(ByteRead.byte)) == missing)
        #expect(KeyDecoder.missingBytes(bytes.map(ByteRead.byte) + [.keyCode(KEY_UP)]) == 0)
    }
}
