import CNcurses
import FitIQTUI

/// A read once its bytes are put together: `OK` with a Unicode scalar, or `KEY_CODE_YES` with a
/// `KEY_*` code (the statuses `wget_wch` gives).
struct RawRead: Hashable, Sendable {
    /// `OK` or `KEY_CODE_YES` (`ERR` never reaches the decoder).
    let status: Int32
    /// The scalar or the key code.
    let value: UInt32
    /// What the mouse did, for a `KEY_MOUSE`.
    var mouse: MouseReport? = nil

    /// A character read (`OK`).
    static func character(_ value: UInt32) -> RawRead { RawRead(status: OK, value: value) }
    /// A function key read (`KEY_CODE_YES`).
    static func keyCode(_ code: Int32) -> RawRead {
        RawRead(status: KEY_CODE_YES, value: UInt32(truncatingIfNeeded: code))
    }
}

/// One result of `wgetch`: a byte of what was typed, or a `KEY_*` code ncurses recognised.
///
/// Bytes are read one by one and put together here, not by `wget_wch`: on a byte that is not UTF-8
/// (a Latin-1 terminal's `é`), `wget_wch` keeps reading in the hope of completing the character and
/// swallows the keys typed after it.
enum ByteRead: Hashable, Sendable {
    case byte(UInt8)
    case keyCode(Int32)
    /// A mouse report (`KEY_MOUSE`, read with `getmouse`).
    case mouse(MouseReport)
}

/// Turns a batch of reads that arrived together into terminal input; pure, so tests need no terminal.
///
/// Arriving together matters twice: an Esc followed at once by more input is Alt-x or an unknown
/// escape sequence (docs/ncurses.md "Escape delay"), not the Escape key, and a base character followed by combining
/// marks is one grapheme cluster.
enum KeyDecoder {
    /// The input in `reads`, in order; `size` is the screen size to report for `KEY_RESIZE`.
    static func decode(
        _ reads: [RawRead], size: (width: Int, height: Int), keyName: (Int32) -> String? = { _ in nil }
    ) -> [TerminalInput] {
        var state = State()
        return decode(reads, size: size, state: &state, keyName: keyName)
    }

    /// What one batch leaves for the next: a bracketed paste whose end has not arrived, or the start
    /// of a paste marker cut off at the end of the batch.
    struct State: Equatable {
        var paste: [Unicode.Scalar]?
        var held: [RawRead] = []
    }

    /// The start and end markers of a bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`).
    static let pasteStart: [UInt32] = [27, 0x5B, 0x32, 0x30, 0x30, 0x7E]
    static let pasteEnd: [Unicode.Scalar] = ["\u{1B}", "[", "2", "0", "1", "~"]

    /// The input in `reads`, carrying a bracketed paste that is not over yet from one batch to the
    /// next in `state` (a long paste arrives in several); `keyName` names ncurses key codes (`kLFT5`).
    static func decode(
        _ batch: [RawRead], size: (width: Int, height: Int), state: inout State, keyName: (Int32) -> String?
    ) -> [TerminalInput] {
        var reads = state.held + batch
        state.held = []
        // A batch that ends with the first bytes of a paste marker (at least `ESC [ 2`: a lone Esc is the
        // Escape key and must not wait) keeps them for the next batch.
        if state.paste == nil, let start = reads.lastIndex(of: .character(27)), reads.count - start >= 3,
            reads.count - start < pasteStart.count,
            zip(reads[start...], pasteStart).allSatisfy({ $0.status == OK && $0.value == $1 })
        {
            state.held = Array(reads[start...])
            reads.removeSubrange(start...)
        }
        var paste = state.paste
        defer { state.paste = paste }
        var inputs: [TerminalInput] = []
        var text = ""  // printable scalars not yet split into grapheme clusters
        func flushText() {
            inputs.append(contentsOf: text.map { .key(.character($0)) })
            text = ""
        }
        var index = reads.startIndex
        while index < reads.endIndex {
            let read = reads[index]
            index += 1
            if var pasted = paste {
                // Inside a paste everything is text until the end marker; key codes are dropped.
                if read.status == OK, let scalar = Unicode.Scalar(read.value) { pasted.append(scalar) }
                if pasted.count >= pasteEnd.count, Array(pasted.suffix(pasteEnd.count)) == pasteEnd {
                    pasted.removeLast(pasteEnd.count)
                    var text = ""
                    text.unicodeScalars.append(contentsOf: pasted)
                    inputs.append(.paste(text))
                    paste = nil
                } else {
                    paste = pasted
                }
                continue
            }
            if read.status == OK, let scalar = Unicode.Scalar(read.value), isPrintable(scalar) {
                text.unicodeScalars.append(scalar)
                continue
            }
            flushText()
            if read.status == OK, read.value == 27, index < reads.endIndex {
                if startsPaste(reads, at: index - 1) {
                    paste = []
                    index += pasteStart.count - 1
                    continue
                }
                let (end, key) = escapeSequence(in: reads, after: index)
                index = end
                if let key { inputs.append(.key(key)) }
                continue
            }
            guard let input = decodeSingle(read, size: size, keyName: keyName) else { continue }
            // A burst of resizes is one resize to the final size.
            if case .resize = input, case .resize? = inputs.last { inputs.removeLast() }
            inputs.append(input)
        }
        flushText()
        return inputs
    }

    /// The scalars the UTF-8 bytes of `reads` spell, with key codes kept in place. Bytes that are not
    /// UTF-8 are dropped; what follows them is kept.
    static func scalars(from reads: [ByteRead]) -> [RawRead] {
        var result: [RawRead] = []
        var bytes: [UInt8] = []
        func flushBytes() {
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): result.append(.character(scalar.value))
                case .emptyInput: break decoding
                case .error: continue
                }
            }
            bytes = []
        }
        for read in reads {
            switch read {
            case .byte(let byte):
                bytes.append(byte)
            case .keyCode(let code):
                flushBytes()
                result.append(.keyCode(code))
            case .mouse(let report):
                flushBytes()
                var read = RawRead.keyCode(KEY_MOUSE)
                read.mouse = report
                result.append(read)
            }
        }
        flushBytes()
        return result
    }

    /// How many bytes the UTF-8 character at the end of `reads` still lacks; 0 when it is complete
    /// (or not UTF-8 at all). A character split between two network packets arrives in two batches.
    static func missingBytes(_ reads: [ByteRead]) -> Int {
        var continuations = 0
        for read in reads.reversed() {
            guard case .byte(let byte) = read else { return 0 }
            if byte & 0xC0 == 0x80 {
                continuations += 1
                if continuations == 4 { return 0 }
                continue
            }
            let length =
                switch byte {
                case 0xC2...0xDF: 2
                case 0xE0...0xEF: 3
                case 0xF0...0xF4: 4
                default: 1
                }
            return max(0, length - 1 - continuations)
        }
        return 0
    }

    /// One read on its own: a key, a resize, or `nil` for what the UI has no use for.
    static func decodeSingle(
        _ read: RawRead, size: (width: Int, height: Int), keyName: (Int32) -> String? = { _ in nil }
    ) -> TerminalInput? {
        if let report = read.mouse { return .mouse(report) }
        if read.status == KEY_CODE_YES {
            let code = Int32(truncatingIfNeeded: read.value)
            if code == KEY_RESIZE { return .resize(width: size.width, height: size.height) }
            return (functionKey(code) ?? namedKey(keyName(code))).map(TerminalInput.key)
        }
        guard read.status == OK else { return nil }
        switch read.value {
        case 13, 10: return .key(.enter)
        case 9: return .key(.tab)
        case 127, 8: return .key(.backspace)
        case 27: return .key(.escape)
        case 1...26:
            let letter = Character(Unicode.Scalar(UInt8(read.value) + 0x60))
            return .key(.control(letter))
        default:
            guard let scalar = Unicode.Scalar(read.value), isPrintable(scalar) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }

    /// The key for a `KEY_*` code, or `nil` for keys the UI does not use.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_DC: .delete
        case KEY_BACKSPACE: .backspace
        case KEY_BTAB: .backTab
        case KEY_ENTER: .enter
        default: nil
        }
    }

    /// Keys terminfo knows only by extended names: Ctrl- and Alt-arrows (`kLFT5`, `kRIT3`).
    static func namedKey(_ name: String?) -> Key? {
        switch name {
        case "kLFT3", "kLFT5": .wordLeft
        case "kRIT3", "kRIT5": .wordRight
        default: nil
        }
    }

    /// Whether the reads from `start` are the bracketed paste start marker.
    private static func startsPaste(_ reads: [RawRead], at start: Int) -> Bool {
        guard start + pasteStart.count <= reads.endIndex else { return false }
        return zip(reads[start..<(start + pasteStart.count)], pasteStart).allSatisfy { read, value in
            read.status == OK && read.value == value
        }
    }

    /// Whether a scalar is text: not a C0/C1 control, not DEL, not a surrogate or noncharacter.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .surrogate, .unassigned: false
        default: !scalar.properties.isNoncharacterCodePoint
        }
    }

    /// Reads what follows an Esc that arrived together with more input: a CSI sequence
    /// (`ESC [` … final byte), an SS3 sequence (`ESC O` x), or one key (Alt-x). Returns where it ends and
    /// the key it means, if the UI has one: Alt-B / Alt-F and Ctrl- or Alt-arrows move by word;
    /// anything else is dropped rather than typed.
    private static func escapeSequence(in reads: [RawRead], after start: Int) -> (end: Int, key: Key?) {
        // Esc then a function key (Alt-arrow): drop the Esc, keep the key.
        guard reads[start].status == OK else { return (start, nil) }
        var index = start + 1
        switch reads[start].value {
        case 0x5B:  // '[': parameters and intermediates, then a final byte 0x40–0x7E
            var parameters: [UInt32] = []
            var final: UInt32?
            while index < reads.endIndex, reads[index].status == OK {
                let value = reads[index].value
                index += 1
                if (0x40...0x7E).contains(value) {
                    final = value
                    break
                }
                parameters.append(value)
            }
            // `ESC [ 1 ; 5 D`: a modifier (3 Alt, 5 Ctrl) on an arrow.
            let modified =
                parameters.count >= 3 && parameters.suffix(2).first == 0x3B
                && [0x33, 0x35].contains(parameters.last ?? 0)
            guard modified else { return (index, nil) }
            switch final {
            case 0x44: return (index, .wordLeft)
            case 0x43: return (index, .wordRight)
            default: return (index, nil)
            }
        case 0x4F:  // 'O': one more byte
            if index < reads.endIndex, reads[index].status == OK { index += 1 }
        case 0x62:  // Alt-B
            return (index, .wordLeft)
        case 0x66:  // Alt-F
            return (index, .wordRight)
        default:
            break
        }
        return (index, nil)
    }
}
