import CNcurses
import FitIQTUI

extension NcursesScreen {
    /// Paints the cells of `buffer` that differ from the last frame (after a resize, or when the
    /// buffer's size changes, every cell that is not blank), then shows the cursor at `cursor` or hides it.
    public func draw(_ buffer: CellBuffer, cursor: (x: Int, y: Int)?) {
        guard isOpen else { return }
        let screenSize = size
        let screenChanged = previousScreenSize.map { $0 != screenSize } ?? false
        let bufferChanged = previousFrame.map { $0.width != buffer.width || $0.height != buffer.height } ?? true
        if screenChanged || bufferChanged {
            werase(window)  // cells outside the new buffer must not keep the old frame
            // The window is blank now: only what is not blank is painted (a first frame is mostly blank).
            previousFrame = CellBuffer(width: buffer.width, height: buffer.height)
        }
        // After a resize the terminal may have reflowed its contents: redraw it from scratch.
        if screenChanged { clearok(window, true) }
        for index in FrameDiff.dirtyIndices(from: previousFrame, to: buffer) {
            paint(index: index, of: buffer, screenSize: screenSize)
        }
        placeCursor(cursor, screenSize: screenSize)
        wnoutrefresh(window)
        doupdate()
        previousFrame = buffer
        previousScreenSize = screenSize
    }

    private func paint(index: Int, of buffer: CellBuffer, screenSize: (width: Int, height: Int)) {
        let x = index % buffer.width
        let y = index / buffer.width
        guard y < screenSize.height,
            let glyph = CellGlyph.at(x: x, y: y, in: buffer, screenWidth: screenSize.width, columnsOf: Self.columns)
        else { return }
        wattr_set(window, palette.attributes(for: glyph.style), palette.pair(for: glyph.style), nil)
        let characters = glyph.scalars.map { wchar_t(bitPattern: $0.value) }
        let touchesBottomRight = y == screenSize.height - 1 && x + glyph.columns == screenSize.width
        characters.withUnsafeBufferPointer { characters in
            let count = Int32(characters.count)
            if touchesBottomRight {
                // Adding there would move the cursor past the last cell, which ncurses refuses (ERR,
                // and no scrolling); inserting writes the cell without moving the cursor.
                _ = mvwins_nwstr(window, Int32(y), Int32(x), characters.baseAddress, count)
            } else {
                _ = mvwaddnwstr(window, Int32(y), Int32(x), characters.baseAddress, count)
            }
        }
    }

    private func placeCursor(_ cursor: (x: Int, y: Int)?, screenSize: (width: Int, height: Int)) {
        guard let cursor, (0..<screenSize.width).contains(cursor.x), (0..<screenSize.height).contains(cursor.y) else {
            setCursorVisible(false)
            return
        }
        wmove(window, Int32(cursor.y), Int32(cursor.x))
        setCursorVisible(true)
    }

    /// `wcwidth` of one scalar: the width ncurses advances by.
    private static func columns(_ scalar: Unicode.Scalar) -> Int {
        Int(wcwidth(wchar_t(bitPattern: scalar.value)))
    }
}
