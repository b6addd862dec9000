/// Removes every `<!DOCTYPE …>` from the prolog of a byte stream before libxml2 sees it.
///
/// With no DOCTYPE there is no DTD, so no entity can be declared; the parser does not substitute
/// entities either (no `XML_PARSE_NOENT`), so this is the second of two guards. This also gets rid of the malformed
/// internal subset of iOS 16.0 exports. The stripper works on chunks of any size: a DOCTYPE split
/// across chunk boundaries is handled; once the root element starts every later byte passes through
/// untouched. Each newline removed is replaced by a newline, so libxml2's line numbers stay true.
struct DoctypeStripper {
    /// Why the prolog cannot be handed to the parser.
    enum Failure: Error, Equatable {
        /// The document does not start like UTF-8 (a UTF-16/32 byte-order mark or EBCDIC).
        case notUTF8
        /// A DOCTYPE runs past `maxDoctypeBytes`.
        case doctypeTooLong(line: Int)
        /// The input ends inside a DOCTYPE.
        case unterminatedDoctype(line: Int)
    }

    private enum State {
        case start, prolog, markup, processingInstruction, comment, body
        case doctype, subset, subsetComment, subsetInstruction, afterSubset
        case doctypeQuote(UInt8), subsetQuote(UInt8)
    }

    /// A real DOCTYPE is about 8 KB; anything far larger is not a Health export.
    static let maxDoctypeBytes = 1 << 20

    private static let doctypeOpen = Array("<!DOCTYPE".utf8)
    private static let commentOpen = Array("<!--".utf8)

    private var state = State.start
    /// Bytes of a `<…` opening seen so far, held back until it is known whether to keep them.
    private var held: [UInt8] = []
    /// Recent bytes inside a comment or processing instruction, to spot `-->` and `?>`.
    private var recent: (UInt8, UInt8) = (0, 0)
    private var doctypeBytes = 0
    private var line = 1
    private var output: [UInt8] = []

    /// Filters `chunk`, handing the bytes to keep to `emit` (zero or more calls, in order).
    mutating func process(
        _ chunk: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        if case .body = state {
            if !chunk.isEmpty { try emit(chunk) }
            return
        }
        let bytes = chunk.bindMemory(to: UInt8.self)
        output.removeAll(keepingCapacity: true)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\n") { line += 1 }
            try step(byte)
            if case .body = state { break }
        }
        if !output.isEmpty { try output.withUnsafeBytes { try emit($0) } }
        if index < bytes.count { try emit(UnsafeRawBufferPointer(rebasing: chunk[index...])) }
    }

    /// Ends the input, handing over any bytes still held back.
    mutating func finish(emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch state {
        case .doctype, .doctypeQuote, .subset, .subsetQuote, .subsetComment, .subsetInstruction, .afterSubset:
            throw Failure.unterminatedDoctype(line: line)
        default:
            if !held.isEmpty { try held.withUnsafeBytes { try emit($0) } }
            held.removeAll()
        }
    }

    private mutating func step(_ byte: UInt8) throws {
        switch state {
        case .start:
            // UTF-16/32 and EBCDIC would hide `<!DOCTYPE` from a byte scanner; Health exports are UTF-8.
            if byte == 0x00 || byte == 0xFE || byte == 0xFF || byte == 0x4C { throw Failure.notUTF8 }
            state = .prolog
            try step(byte)
        case .prolog:
            if byte == 0x00 { throw Failure.notUTF8 }
            if byte == UInt8(ascii: "<") {
                held = [byte]
                state = .markup
            } else {
                output.append(byte)
            }
        case .markup:
            // `<` then NUL is UTF-16 without a byte-order mark.
            if byte == 0x00 { throw Failure.notUTF8 }
            held.append(byte)
            classifyMarkup()
        case .processingInstruction:
            output.append(byte)
            if recent.1 == UInt8(ascii: "?") && byte == UInt8(ascii: ">") { state = .prolog }
            remember(byte)
        case .comment:
            output.append(byte)
            if recent == (UInt8(ascii: "-"), UInt8(ascii: "-")) && byte == UInt8(ascii: ">") { state = .prolog }
            remember(byte)
        case .body:
            output.append(byte)
        default:
            try stripDoctype(byte)
        }
    }

    /// Decides what a `<…` opening in the prolog is, once enough bytes are held.
    private mutating func classifyMarkup() {
        if held == Self.doctypeOpen {
            held.removeAll()
            doctypeBytes = Self.doctypeOpen.count
            state = .doctype
            return
        }
        let next: State
        if held == Self.commentOpen {
            next = .comment
        } else if held.count == 2 && held[1] == UInt8(ascii: "?") {
            next = .processingInstruction
        } else if Self.doctypeOpen.starts(with: held) || Self.commentOpen.starts(with: held) {
            return  // still ambiguous: wait for the next byte
        } else {
            // The root element's start tag, or markup libxml2 will reject on its own.
            next = .body
        }
        output.append(contentsOf: held)
        held.removeAll()
        recent = (0, 0)
        state = next
    }

    /// Drops one byte of a DOCTYPE, following quotes, comments and the internal subset to its end.
    private mutating func stripDoctype(_ byte: UInt8) throws {
        doctypeBytes += 1
        guard doctypeBytes <= Self.maxDoctypeBytes else { throw Failure.doctypeTooLong(line: line) }
        if byte == UInt8(ascii: "\n") { output.append(byte) }
        switch state {
        case .doctype:
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .doctypeQuote(byte)
            } else if byte == UInt8(ascii: "[") {
                state = .subset
            } else if byte == UInt8(ascii: ">") {
                state = .prolog
            }
        case .doctypeQuote(let quote):
            if byte == quote { state = .doctype }
        case .subset:
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                state = .subsetQuote(byte)
            } else if byte == UInt8(ascii: "]") {
                state = .afterSubset
            } else if recent == (UInt8(ascii: "<"), UInt8(ascii: "!")) && byte == UInt8(ascii: "-") {
                state = .subsetComment  // `<!-` then the second `-` is inside the comment
                remember(0)
            } else if recent.1 == UInt8(ascii: "<") && byte == UInt8(ascii: "?") {
                state = .subsetInstruction
                remember(0)
            }
        case .subsetQuote(let quote):
            if byte == quote { state = .subset }
        case .subsetComment:
            if recent == (UInt8(ascii: "-"), UInt8(ascii: "-")) && byte == UInt8(ascii: ">") {
                state = .subset
                remember(0)
            }
        case .subsetInstruction:
            if recent.1 == UInt8(ascii: "?") && byte == UInt8(ascii: ">") {
                state = .subset
                remember(0)
            }
        case .afterSubset:
            if byte == UInt8(ascii: ">") {
                state = .prolog
            } else if !Self.isSpace(byte) {
                state = .subset  // a stray `]` inside a malformed subset: keep looking
            }
        default:
            break
        }
        remember(byte)
    }

    private mutating func remember(_ byte: UInt8) {
        recent = (recent.1, byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
