import NcursesTerminal
import Testing

/// Which terminal type the editor opens with (`TERM`, `FITIQ_TERM`, and the fallbacks for a type the
/// machine's terminfo does not know).
struct TerminalTypeTests {
    /// Terminfo with these entries only.
    static func terminfo(_ names: Set<String>) -> @Sendable (String) -> Bool { { names.contains($0) } }
    static let debian: @Sendable (String) -> Bool = terminfo([
        "xterm-256color", "xterm", "tmux-256color", "screen-256color", "linux", "dumb",
    ])

    @Test func aKnownTypeIsUsedAsItIsWithNoNotice() {
        let type = TerminalType.resolve(environment: ["TERM": "tmux-256color"], isKnown: Self.debian)
        #expect(type == TerminalType(requested: "tmux-256color", chosen: "tmux-256color"))
        #expect(!type.isFallback)
        #expect(type.notice == nil)
        #expect(type.plainModeReason == nil)
    }

    @Test(arguments: ["xterm-ghostty", "xterm-kitty", "wezterm-256color", "alacritty-256color"])
    func anUnknownXtermOr256ColorTypeOpensAsXterm256Color(name: String) {
        let type = TerminalType.resolve(environment: ["TERM": name], isKnown: Self.debian)
        #expect(type.chosen == "xterm-256color")
        #expect(type.isFallback)
        #expect(
            type.notice == "TERM \(name) is unknown here, shown as xterm-256color. "
                + "To install it: infocmp -x | ssh HOST -- tic -x -")
    }

    @Test func anyOtherUnknownTypeOpensAsXterm() {
        let type = TerminalType.resolve(environment: ["TERM": "wezterm"], isKnown: Self.debian)
        #expect(type.chosen == "xterm")
        #expect(type.notice?.contains("shown as xterm.") == true)
    }

    @Test func anXtermFamilyTypeFallsBackToXtermWhenThereIsNo256ColorEntry() {
        let type = TerminalType.resolve(environment: ["TERM": "xterm-ghostty"], isKnown: Self.terminfo(["xterm"]))
        #expect(type.chosen == "xterm")
    }

    @Test func withNoFallbackInstalledPlainModeStartsAndSaysWhy() {
        let type = TerminalType.resolve(environment: ["TERM": "xterm-ghostty"], isKnown: Self.terminfo(["linux"]))
        #expect(type.chosen == nil)
        #expect(type.notice == nil)
        #expect(type.plainModeReason?.contains("xterm-ghostty is unknown here") == true)
    }

    @Test(arguments: [[:], ["TERM": ""], ["TERM": "dumb"], ["FITIQ_TERM": "", "TERM": "dumb"]])
    func noTypeOrDumbMeansPlainModeWithoutAReason(environment: [String: String]) {
        let type = TerminalType.resolve(environment: environment, isKnown: Self.debian)
        #expect(type.chosen == nil)
        #expect(type.plainModeReason == nil)
    }

    @Test func fitiqTermChoosesOverTerm() {
        let chosen = TerminalType.resolve(
            environment: ["TERM": "dumb", "FITIQ_TERM": "screen-256color"], isKnown: Self.debian)
        #expect(chosen == TerminalType(requested: "screen-256color", chosen: "screen-256color"))
        // And it falls back like TERM does.
        let fallback = TerminalType.resolve(
            environment: ["TERM": "xterm-256color", "FITIQ_TERM": "xterm-ghostty"], isKnown: Self.debian)
        #expect(fallback == TerminalType(requested: "xterm-ghostty", chosen: "xterm-256color"))
    }

    /// Against this machine's own terminfo (Debian's ncurses-base has xterm and xterm-256color).
    @Test func theMachinesTerminfoIsAskedWithoutOpeningTheTerminal() {
        #expect(TerminalType.terminfoHas("xterm-256color"))
        #expect(TerminalType.terminfoHas("xterm"))
        #expect(!TerminalType.terminfoHas("xterm-no-such-terminal"))
        #expect(!TerminalType.terminfoHas(""))
        #expect(!TerminalType.terminfoHas("../x/xterm"), "a path is not a terminal name")
        // Asking twice works: the entry loaded for the question is dropped each time.
        #expect(TerminalType.terminfoHas("xterm-256color"))
        let type = TerminalType.resolve(
            environment: ["TERM": "xterm-no-such-terminal"], isKnown: TerminalType.terminfoHas)
        #expect(type.chosen == "xterm-256color")
    }
}
