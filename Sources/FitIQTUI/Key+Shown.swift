import FitIQLocalization

extension Key {
    /// Whether the mouse made it (a click or the wheel), not the keyboard.
    var isMouse: Bool {
        switch self {
        case .wheelUp, .wheelDown, .click: true
        default: false
        }
    }

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
        case .wheelUp: tr("wheel up")
        case .wheelDown: tr("wheel down")
        case .click(.field): tr("click a field")
        case .click(.entry): tr("click an entry")
        case .click(.hint): tr("click a key hint")
        case .click(.outside): tr("click outside the box")
        }
    }
}
