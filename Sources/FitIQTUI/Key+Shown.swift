extension Key {
    /// The key as the help and the footer name it: `Tab`, `Ctrl-S`, `↓`, `j`.
    var shown: String {
        switch self {
        case .character(let character): String(character)
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .wordLeft: "Alt-B"
        case .wordRight: "Alt-F"
        case .control(let letter): "Ctrl-" + String(letter).uppercased()
        }
    }
}
