import CNcurses
import FitIQTUI

/// How cell styles become ncurses attributes and colour pairs; pure, so the decisions are testable.
///
/// Colours are hints: without colour (`NO_COLOR`, `TERM=vt100`) only the style's attributes are drawn.
/// Colour pairs keep the terminal's own background (-1, `use_default_colors`).
struct TerminalPalette: Equatable, Sendable {
    /// Whether colour pairs are used.
    let usesColor: Bool
    /// How many colours the terminal has (`COLORS`); 16 or more gives muted text a grey.
    let colorCount: Int

    /// A palette for a terminal that has (or lacks) colours, under the user's `NO_COLOR` choice.
    init(terminalHasColors: Bool, colorCount: Int, environment: [String: String]) {
        usesColor = terminalHasColors && Self.allowsColor(environment: environment)
        self.colorCount = usesColor ? colorCount : 0
    }

    /// Whether the environment allows colour: `NO_COLOR` set to any non-empty value forbids it (no-color.org).
    static func allowsColor(environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// The pairs to define with `init_pair(pair, foreground, -1)`; none without colour.
    var pairDefinitions: [(pair: Int16, foreground: Int16)] {
        guard usesColor else { return [] }
        let colors: [(CellStyle.Color, Int32)] = [
            (.accent, COLOR_CYAN), (.good, COLOR_GREEN), (.warning, COLOR_YELLOW), (.error, COLOR_RED),
        ]
        var definitions = colors.map { (pair: pairNumber($0.0), foreground: Int16($0.1)) }
        if hasGrey { definitions.append((pair: pairNumber(.muted), foreground: 8)) }
        return definitions
    }

    /// The colour pair for a style (0: the terminal's default colours).
    func pair(for style: CellStyle) -> Int16 {
        guard usesColor, let color = style.color else { return 0 }
        if color == .muted, !hasGrey { return 0 }
        return pairNumber(color)
    }

    /// The attributes for a style (without the colour pair, which `wattr_set` takes separately).
    func attributes(for style: CellStyle) -> attr_t {
        var attributes = fitiq_A_NORMAL
        if style.attributes.contains(.bold) { attributes |= fitiq_A_BOLD }
        if style.attributes.contains(.reverse) { attributes |= fitiq_A_REVERSE }
        if style.attributes.contains(.underline) { attributes |= fitiq_A_UNDERLINE }
        if style.attributes.contains(.dim) { attributes |= fitiq_A_DIM }
        // With only 8 colours there is no grey: muted text is dimmed instead.
        if usesColor, style.color == .muted, !hasGrey { attributes |= fitiq_A_DIM }
        return attributes
    }

    private var hasGrey: Bool { colorCount >= 16 }

    private func pairNumber(_ color: CellStyle.Color) -> Int16 {
        switch color {
        case .accent: 1
        case .good: 2
        case .warning: 3
        case .error: 4
        case .muted: 5
        }
    }
}
