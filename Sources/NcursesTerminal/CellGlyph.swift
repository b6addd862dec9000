import FitIQTUI

/// What to write for one cell so that ncurses and the terminal agree on the columns it takes; pure.
///
/// A cell followed by a continuation is written over both columns; a continuation with no cell before it
/// to cover it (at the start of a row, or after another continuation) is written as a space.
///
/// The buffer lays text out with `DisplayWidth`; ncurses advances by `wcwidth` of each scalar (docs/ncurses.md
/// "Widths"). Where they disagree (a newer emoji, `❤️` whose variation selector `wcwidth` ignores, a ZWJ
/// sequence whose later scalars are spacing, a stray combining mark) the cell is written in a form
/// whose `wcwidth` matches the buffer, so the rest of the row never shifts.
struct CellGlyph: Equatable, Sendable {
    /// The scalars to write, all in one call (a grapheme cluster stays together).
    let scalars: [Unicode.Scalar]
    /// The columns the scalars take by `wcwidth` (1 or 2), which is what the buffer gave the cell.
    let columns: Int
    /// How a cell's style is drawn.
    let style: CellStyle

    /// The glyph for the cell at `(x, y)`, or `nil` when nothing is written there (the right half of a
    /// wide character already written, or a cell beyond `screenWidth`).
    ///
    /// - Parameter columnsOf: `wcwidth` of one scalar (-1 for unprintable), injected for tests.
    static func at(
        x: Int, y: Int, in buffer: CellBuffer, screenWidth: Int, columnsOf: (Unicode.Scalar) -> Int
    ) -> CellGlyph? {
        guard x < screenWidth, x < buffer.width, y < buffer.height else { return nil }
        let cell = buffer[x, y]
        if cell.isContinuation {
            // The cell before (any cell but another continuation) is written over this column too.
            let covered = x > 0 && !buffer[x - 1, y].isContinuation
            return covered ? nil : CellGlyph(scalars: [" "], columns: 1, style: cell.style)
        }
        guard wantsTwoColumns(x: x, y: y, in: buffer) else {
            let scalars = scalars(for: cell.character, columns: 1, columnsOf: columnsOf)
            return CellGlyph(scalars: scalars, columns: 1, style: cell.style)
        }
        // A wide character cut by the right edge of the screen becomes a space, as in `CellBuffer.put`.
        guard x + 1 < screenWidth else { return CellGlyph(scalars: [" "], columns: 1, style: cell.style) }
        return CellGlyph(
            scalars: scalars(for: cell.character, columns: 2, columnsOf: columnsOf), columns: 2, style: cell.style)
    }

    /// Whether the cell at `(x, y)` is followed by its continuation.
    private static func wantsTwoColumns(x: Int, y: Int, in buffer: CellBuffer) -> Bool {
        x + 1 < buffer.width && buffer[x + 1, y].isContinuation
    }

    /// Scalars for `character` that take exactly `columns` columns by `columnsOf`.
    static func scalars(
        for character: Character, columns: Int, columnsOf: (Unicode.Scalar) -> Int
    ) -> [Unicode.Scalar] {
        let all = Array(character.unicodeScalars)
        guard let first = all.first else { return padded([], to: columns) }
        let firstColumns = columnsOf(first)
        if firstColumns == columns, all.dropFirst().allSatisfy({ columnsOf($0) == 0 }) { return all }
        // Keep the base and its zero-width marks up to the first spacing scalar (e.g. 🏃 of 🏃‍♂️).
        let base = [first] + all.dropFirst().prefix { columnsOf($0) == 0 && $0.value != 0x200D }
        if firstColumns == columns { return base }
        // `❤️` (or a narrow character before a continuation): without the selector, then a space.
        if firstColumns == 1, columns == 2 { return [first, " "] }
        return padded([], to: columns, with: columnsOf("\u{FFFD}") == 1 ? "\u{FFFD}" : "?")
    }

    private static func padded(
        _ scalars: [Unicode.Scalar], to columns: Int, with filler: Unicode.Scalar = " "
    ) -> [Unicode.Scalar] {
        scalars + Array(repeating: filler, count: max(0, columns - scalars.count))
    }
}
