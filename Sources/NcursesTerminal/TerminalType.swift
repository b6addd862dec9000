import CNcurses
import FitIQLocalization

/// The terminal type the editor opens with: the one asked for when terminfo has it, else a close
/// relative, else none (plain mode).
///
/// Terminals such as Ghostty, kitty and WezTerm send `TERM`s of their own (`xterm-ghostty`,
/// `xterm-kitty`, …) that most servers reached over SSH have no entry for. They all speak xterm's
/// language, so the editor opens as `xterm-256color` (or `xterm`) and says how to install the real
/// entry, rather than stopping.
public struct TerminalType: Equatable, Sendable {
    /// What was asked for: `FITIQ_TERM`, else `TERM`; nil when neither is set (or both are empty).
    public let requested: String?
    /// What ncurses is to open with; nil when nothing works: plain mode.
    public let chosen: String?

    public init(requested: String?, chosen: String?) {
        self.requested = requested
        self.chosen = chosen
    }

    /// Whether the editor opens with a type other than the one asked for.
    public var isFallback: Bool { chosen != nil && chosen != requested }

    /// Picks the type for `environment`; `isKnown` says whether terminfo has an entry (see
    /// ``terminfoHas(_:)``).
    public static func resolve(environment: [String: String], isKnown: (String) -> Bool) -> TerminalType {
        let requested = [environment["FITIQ_TERM"], environment["TERM"]].lazy.compactMap { $0 }
            .first { !$0.isEmpty }
        guard let requested, requested != "dumb" else { return TerminalType(requested: requested, chosen: nil) }
        let chosen = ([requested] + fallbacks(for: requested)).first(where: isKnown)
        return TerminalType(requested: requested, chosen: chosen)
    }

    /// The types tried, in order, when terminfo has no entry for `name`: the xterm family and any
    /// `*-256color` name fall back to `xterm-256color` first; every name ends with plain `xterm`.
    public static func fallbacks(for name: String) -> [String] {
        name.hasPrefix("xterm-") || name.hasSuffix("-256color") ? ["xterm-256color", "xterm"] : ["xterm"]
    }

    /// Whether this machine's terminfo has an entry for `name` (without opening the terminal).
    public static func terminfoHas(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && fitiq_terminfo_has(name) != 0
    }

    /// One line on a fallback: what was asked for, what is used, and how to install the right entry
    /// (run where the terminal is, with the server's name for HOST). Nil when there was none.
    /// `requested` comes from the environment: the caller strips control characters before showing it.
    public var notice: String? {
        guard isFallback, let requested, let chosen else { return nil }
        return tr(
            "TERM {requested} is unknown here, shown as {chosen}. To install it: infocmp -x | ssh HOST -- tic -x -",
            ["requested": requested, "chosen": chosen])
    }

    /// Why plain mode starts instead of the editor, when a type was asked for and nothing works.
    public var plainModeReason: String? {
        guard chosen == nil, let requested, requested != "dumb" else { return nil }
        return tr(
            "The terminal type {requested} is unknown here, and so are xterm-256color and xterm; plain mode starts.",
            ["requested": requested])
    }
}
