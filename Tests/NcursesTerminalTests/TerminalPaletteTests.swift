import CNcurses
import FitIQTUI
import Testing

@testable import NcursesTerminal

struct TerminalPaletteTests {
    private let colors: [CellStyle.Color] = [.accent, .good, .warning, .error, .muted]

    @Test(
        arguments: [
            ([:], true), (["NO_COLOR": ""], true), (["NO_COLOR": "1"], false), (["NO_COLOR": "yes please"], false),
        ] as [([String: String], Bool)])
    func noColorWithAnyNonEmptyValueTurnsColourOff(environment: [String: String], expected: Bool) {
        #expect(TerminalPalette.allowsColor(environment: environment) == expected)
        #expect(
            TerminalPalette(terminalHasColors: true, colorCount: 256, environment: environment).usesColor == expected)
    }

    @Test func aTerminalWithoutColoursGetsNone() {
        #expect(!TerminalPalette(terminalHasColors: false, colorCount: 0, environment: [:]).usesColor)
    }

    @Test func withoutColourOnlyTheStyleAttributesAreDrawn() {
        let palette = TerminalPalette(terminalHasColors: true, colorCount: 256, environment: ["NO_COLOR": "1"])
        #expect(palette.pairDefinitions.isEmpty)
        for color in colors {
            let style = CellStyle([.bold, .underline], color: color)
            #expect(palette.pair(for: style) == 0)
            #expect(palette.attributes(for: style) == fitiq_A_BOLD | fitiq_A_UNDERLINE)
        }
    }

    @Test func eachColourHasItsOwnPairOnTheDefaultBackground() {
        let palette = TerminalPalette(terminalHasColors: true, colorCount: 256, environment: [:])
        let pairs = colors.map { palette.pair(for: CellStyle(color: $0)) }
        #expect(Set(pairs).count == colors.count && !pairs.contains(0))
        #expect(Set(palette.pairDefinitions.map(\.pair)) == Set(pairs))
        #expect(
            palette.pairDefinitions.first { $0.pair == palette.pair(for: CellStyle(color: .muted)) }?.foreground == 8)
        #expect(palette.pair(for: .plain) == 0)
    }

    @Test func withEightColoursMutedTextIsDimmed() {
        let palette = TerminalPalette(terminalHasColors: true, colorCount: 8, environment: [:])
        let muted = CellStyle(color: .muted)
        #expect(palette.pair(for: muted) == 0)
        #expect(palette.attributes(for: muted) == fitiq_A_DIM)
        #expect(palette.pairDefinitions.count == 4)
    }

    @Test(
        arguments: [
            (CellStyle.Attributes.bold, fitiq_A_BOLD), (.reverse, fitiq_A_REVERSE), (.underline, fitiq_A_UNDERLINE),
            (.dim, fitiq_A_DIM), (CellStyle.Attributes(), fitiq_A_NORMAL),
            ([.bold, .reverse], fitiq_A_BOLD | fitiq_A_REVERSE),
        ] as [(CellStyle.Attributes, attr_t)])
    func attributesMapToCursesAttributes(attributes: CellStyle.Attributes, expected: attr_t) {
        let palette = TerminalPalette(terminalHasColors: false, colorCount: 0, environment: [:])
        #expect(palette.attributes(for: CellStyle(attributes)) == expected)
    }
}
