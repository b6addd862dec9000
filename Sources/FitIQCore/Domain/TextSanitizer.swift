/// Removes control characters and whole escape sequences from text before it reaches a terminal.
///
/// Text from the server, the cache or files may carry `ESC [ 2 J`, `ESC ] 0 ; … BEL` and the like.
/// Sequences are dropped whole (not just their ESC), tabs and newlines become spaces.
public enum TextSanitizer {
    /// The text with every escape sequence and control character removed.
    public static func sanitize(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? scalars.next() {
            pending = nil
            switch scalar.value {
            case 0x1B:
                pending = skipEscapeSequence(&scalars)
            case 0x9B:  // C1 CSI
                pending = skipControlSequence(&scalars)
            case 0x90, 0x9D, 0x9E, 0x9F, 0x98:  // C1 DCS, OSC, PM, APC, SOS: strings ended by ST or BEL
                skipString(&scalars)
            case 0x09, 0x0A, 0x0D:
                output.append(" ")
            case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                // Other C0/C1 controls, line separators and bidi overrides are dropped.
                continue
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// Whether `text` holds anything ``sanitize(_:)`` would remove or replace.
    public static func containsControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// Skips what follows an ESC; returns a scalar read too far, if any.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) -> Unicode.Scalar? {
        guard let next = scalars.next() else { return nil }
        switch next {
        case "[": return skipControlSequence(&scalars)
        case "]", "P", "^", "_", "X":
            skipString(&scalars)
            return nil
        default:
            // Two-character sequences (ESC c, ESC 7, ESC ( B …): intermediates 0x20–0x2F, then a final byte.
            var current = next
            while (0x20...0x2F).contains(current.value) {
                guard let following = scalars.next() else { return nil }
                current = following
            }
            return (0x30...0x7E).contains(current.value) ? nil : current
        }
    }

    /// Skips parameters and intermediates of a CSI sequence up to its final byte.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) -> Unicode.Scalar? {
        while let scalar = scalars.next() {
            if (0x40...0x7E).contains(scalar.value) { return nil }
            if !(0x20...0x3F).contains(scalar.value) { return scalar }
        }
        return nil
    }

    /// Skips an OSC/DCS/PM/APC string up to BEL, ST (ESC \) or C1 ST.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = scalars.next()
                return
            default: continue
            }
        }
    }
}
