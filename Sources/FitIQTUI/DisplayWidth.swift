/// How many terminal columns text takes: 2 for wide characters (李, most emoji), 0 for marks.
///
/// A pure-Swift stand-in for `wcwidth` over grapheme clusters, so layout needs no C library.
public enum DisplayWidth {
    /// The columns one grapheme cluster takes (0, 1 or 2).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        var rest = scalars.makeIterator()
        guard let first = rest.next() else { return 0 }
        // Most of a frame: letters, box drawing, braille and blocks, one column each without asking the
        // Unicode tables, which made a keystroke slow with a chart on screen (docs/benchmarks.md).
        if rest.next() == nil, isNarrow(first.value) { return 1 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if isWide(first.value) { return 2 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        return 1
    }

    /// The columns `text` takes.
    public static func of(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// Scalars one column wide on their own: printable ASCII and Latin (the soft hyphen aside, a
    /// format character), box drawing, block elements and braille.
    private static func isNarrow(_ value: UInt32) -> Bool {
        switch value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x2500...0x259F, 0x2800...0x28FF: true
        default: false
        }
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: scalar.value == 0x200B
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15), plus the emoji blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default: false
        }
    }
}
