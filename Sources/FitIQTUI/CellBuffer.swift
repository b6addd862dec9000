/// How a cell is drawn. Colours are hints: without colour (NO_COLOR, vt100) only the attributes show.
public struct CellStyle: Hashable, Sendable {
    /// Text attributes that work on every terminal.
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1)
        public static let reverse = Attributes(rawValue: 2)
        public static let underline = Attributes(rawValue: 4)
        public static let dim = Attributes(rawValue: 8)
    }

    /// A foreground colour.
    public enum Color: Hashable, Sendable {
        case accent, good, warning, error, muted
    }

    public var attributes: Attributes
    public var color: Color?

    public init(_ attributes: Attributes = [], color: Color? = nil) {
        self.attributes = attributes
        self.color = color
    }

    public static let plain = CellStyle()
}

/// One terminal cell: a grapheme cluster and its style. A wide character fills its cell and the next,
/// which holds ``continuation``.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public var style: CellStyle

    public init(_ character: Character, style: CellStyle = .plain) {
        self.character = character
        self.style = style
    }

    /// The right half of a wide character (never painted itself).
    public static let continuation = Cell("\u{0}")
    public static let blank = Cell(" ")

    /// A NUL is a grapheme cluster of its own (a control character), so its first byte tells it; a
    /// comparison of Characters would take the slow path for every cell that is not ASCII.
    public var isContinuation: Bool { character.utf8.first == 0 }
}

/// A grid of cells that a screen is rendered into; tests compare buffers, the terminal adapter paints them.
public struct CellBuffer: Hashable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// What a click at each place means, in drawing order (what was drawn last lies on top); not part
    /// of the buffer's value: two buffers with the same cells are equal.
    var targets: [Target] = []

    /// A rectangle of the screen that a click names (``ScreenTarget``).
    struct Target: Sendable {
        var x: Int, y: Int, width: Int, height: Int
        var what: ScreenTarget

        func contains(x column: Int, y row: Int) -> Bool {
            (x..<(x + width)).contains(column) && (y..<(y + height)).contains(row)
        }
    }

    public static func == (lhs: CellBuffer, rhs: CellBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(cells)
    }

    /// Records that a click in the rectangle means `what`.
    mutating func mark(_ what: ScreenTarget, x: Int, y: Int, width: Int, height: Int = 1) {
        guard width > 0, height > 0 else { return }
        targets.append(Target(x: x, y: y, width: width, height: height, what: what))
    }

    /// Forgets every target (a new frame is drawn over the buffer).
    mutating func clearTargets() {
        targets.removeAll(keepingCapacity: true)
    }

    /// What a click at (`x`, `y`) lands on: the target drawn last there.
    func target(x: Int, y: Int) -> ScreenTarget? {
        targets.last { $0.contains(x: x, y: y) }?.what
    }

    /// A blank buffer.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// A buffer holding `lines` as plain text (width: the widest line), for tests.
    public init(lines: [String]) {
        self.init(width: lines.map(DisplayWidth.of).max() ?? 0, height: lines.count)
        for (row, line) in lines.enumerated() { put(line, x: 0, y: row) }
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    /// Writes `text` from column `x` on row `y`, clipped at `limit` columns (or the edge); a wide
    /// character that does not fit is replaced by a space. Returns the columns written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, limit: Int? = nil) -> Int {
        guard y >= 0, y < height else { return 0 }
        let end = min(width, x + (limit ?? width))
        var column = x
        for character in text {
            let columns = DisplayWidth.of(character)
            if columns == 0 { continue }
            guard column + columns <= end else {
                if column < end, column >= 0 { self[column, y] = Cell(" ", style: style) }
                column = end
                break
            }
            if column >= 0 {
                self[column, y] = Cell(character, style: style)
                if columns == 2 { self[column + 1, y] = .continuation }
            }
            column += columns
        }
        return max(0, column - x)
    }

    /// Fills a rectangle with spaces in `style`.
    public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: CellStyle = .plain) {
        for row in max(0, y)..<min(self.height, y + height) {
            for column in max(0, x)..<min(self.width, x + width) { self[column, row] = Cell(" ", style: style) }
        }
    }

    /// Copies the whole of `source` to (`x`, `y`), clipped to this buffer.
    public mutating func put(_ source: CellBuffer, x: Int, y: Int) {
        for row in 0..<source.height where y + row >= 0 && y + row < height {
            for column in 0..<source.width where x + column >= 0 && x + column < width {
                self[x + column, y + row] = source[column, row]
            }
        }
    }

    /// Copies `rows` rows of `source`, from its row `sourceY`, to this buffer's row `y` (same columns).
    public mutating func blit(_ source: CellBuffer, sourceY: Int, rows: Int, toY y: Int) {
        for row in 0..<max(0, rows) {
            let from = sourceY + row
            let to = y + row
            guard from >= 0, from < source.height, to >= 0, to < height else { continue }
            for column in 0..<min(width, source.width) { self[column, to] = source[column, from] }
        }
        // The targets of the rows copied, moved with them.
        for var target in source.targets where target.y >= sourceY && target.y < sourceY + rows {
            target.y += y - sourceY
            guard target.y >= 0, target.y < height else { continue }
            targets.append(target)
        }
    }

    /// Each row as text (wide characters once, trailing spaces kept).
    public var lines: [String] {
        (0..<height).map { row in
            String((0..<width).map { self[$0, row] }.filter { !$0.isContinuation }.map(\.character))
        }
    }

    public var description: String { lines.joined(separator: "\n") }

    /// Whether the rows read as `lines` (ignoring styles and trailing spaces).
    public func reads(_ expected: [String]) -> Bool {
        func trimmed(_ text: String) -> String {
            var text = text
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return lines.map(trimmed) == expected.map(trimmed)
    }
}
