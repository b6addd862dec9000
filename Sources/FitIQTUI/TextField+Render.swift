import FitIQCore

extension TextField {
    /// Draws the visible part of the text on row `y` from column `x`, `width` columns wide, and
    /// returns the screen column of the cursor.
    ///
    /// Wide characters take two columns and are never split; the rest of the width is filled with
    /// spaces in `style`. When the text is wider than the field, the view scrolls horizontally:
    /// it shows the end of the text when the cursor is there, and otherwise moves in steps of half
    /// the width, so the text stays still while the cursor moves inside the view. `masked` draws one
    /// `•` per grapheme cluster (passwords). The text is sanitized for display: escape sequences and
    /// control characters (possible in text that came from the server) are never drawn.
    public func render(
        into buffer: inout CellBuffer, x: Int, y: Int, width: Int, style: CellStyle, masked: Bool = false
    ) -> Int {
        guard width > 0 else { return x }
        let segments = displaySegments(masked: masked)
        // starts[i]: the column where cluster i begins; starts[segments.count]: the end of the text.
        var starts: [Int] = []
        starts.reserveCapacity(segments.count + 1)
        var column = 0
        for segment in segments {
            starts.append(column)
            column += segment.width
        }
        starts.append(column)
        let cursor = max(0, min(self.cursor, segments.count))
        let first = firstVisible(starts: starts, segments: segments, cursor: cursor, width: width)

        buffer.fill(x: x, y: y, width: width, height: 1, style: style)
        var used = 0
        for segment in segments[first...] {
            guard used + segment.width <= width else { break }
            if segment.width > 0 {
                buffer.put(segment.text, x: x + used, y: y, style: style, limit: segment.width)
            }
            used += segment.width
        }
        return x + starts[cursor] - starts[first]
    }

    /// The first cluster shown so that the cursor (and the cluster under it) fits in `width` columns.
    private func firstVisible(
        starts: [Int], segments: [(text: String, width: Int)], cursor: Int, width: Int
    ) -> Int {
        let cursorWidth = cursor < segments.count ? max(1, segments[cursor].width) : 1
        let cursorColumn = starts[cursor]
        // Scroll in steps of half the width: a view that depends only on the text and the cursor
        // (render keeps no state) yet does not shift on every cursor move.
        let step = max(1, width / 2)
        let overflow = cursorColumn + cursorWidth - width
        let offset = overflow <= 0 ? 0 : min(cursorColumn, (overflow + step - 1) / step * step)
        let pageStart = starts.firstIndex { $0 >= offset } ?? cursor
        // Never leave the field half empty while text is hidden on the left: show the end of the
        // text (plus the cell after it, where the cursor sits when typing at the end) when it fits.
        let total = starts[segments.count]
        let endStart = starts.firstIndex { total - $0 + 1 <= width } ?? segments.count
        return min(pageStart, endStart)
    }

    /// What each grapheme cluster of the text shows on screen, and how many columns that takes.
    func displaySegments(masked: Bool) -> [(text: String, width: Int)] {
        if masked { return text.map { _ in (text: "•", width: 1) } }
        guard TextSanitizer.containsControls(text) else {
            return text.map { (text: String($0), width: DisplayWidth.of($0)) }
        }
        // Text from elsewhere may hold escape sequences spanning several clusters. Sanitizing only
        // appends as it reads, so each cluster shows what it adds to the sanitized text before it:
        // nothing for the parts of a sequence, a space for a tab or newline. Quadratic, but only for
        // hostile one-line text.
        var segments: [(text: String, width: Int)] = []
        var shownScalars = 0
        for index in text.indices {
            let prefix = TextSanitizer.sanitize(String(text[...index])).unicodeScalars
            var added = String.UnicodeScalarView()
            added.append(contentsOf: prefix.dropFirst(shownScalars))
            shownScalars = max(shownScalars, prefix.count)
            let shown = String(added)
            segments.append((text: shown, width: DisplayWidth.of(shown)))
        }
        return segments
    }
}
