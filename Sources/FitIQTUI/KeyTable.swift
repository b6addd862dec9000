import FitIQCore

/// What a key does on the profile screen outside an edit.
enum ProfileAction: Sendable, Equatable {
    case nextField, previousField, edit, save, toggleLower, syncNow, help, editBioExternally, importHealth
    case retryRejected, discardRejected, keepLocal, takeServer, undo, openList, enterList, quit, openProgress
    case scrollDetailsDown, scrollDetailsUp
    /// In the history list.
    case listDown, listUp, leaveListForward, leaveList, removeEntry, correctEntry
}

/// One row of the key table: the keys, where they apply, what they do, and how the footer and the
/// help name them. The table drives the key handling, the footer hints and the help screen.
struct KeyBinding: Sendable {
    /// Where a binding applies on the profile screen.
    enum Place: Sendable {
        /// The form has the focus (no field is being edited).
        case form
        /// The history list has the focus; keys it does not bind go to the form's bindings.
        case list
    }

    let keys: [Key]
    let place: Place
    /// When else it applies (the focus, the lower panel); always when `nil`.
    let when: (@Sendable (AppState) -> Bool)?
    let action: ProfileAction
    /// The footer hint (`Tab move`), or `nil` when it has none.
    let hint: String?
    /// What the help says it does.
    let help: String

    init(
        _ keys: [Key], in place: Place = .form, when: (@Sendable (AppState) -> Bool)? = nil, _ action: ProfileAction,
        hint: String? = nil, help: String
    ) {
        self.keys = keys
        self.place = place
        self.when = when
        self.action = action
        self.hint = hint
        self.help = help
    }

    /// The keys as the help writes them: `Tab / ↓ / j`.
    var shownKeys: String { keys.map(\.shown).joined(separator: " / ") }

    func applies(to state: AppState) -> Bool {
        when?(state) ?? true
    }
}

/// The editor's keys (README "Keys").
enum KeyTable {
    /// The profile screen's bindings, in order of importance: the first that matches a key wins, and
    /// the footer shows the hints that fit in this order.
    static let profile: [KeyBinding] = [
        KeyBinding([.enter], .edit, hint: "Enter edit", help: "edit the field, or confirm the edit"),
        KeyBinding([.control("s")], .save, hint: "Ctrl-S save", help: "save every form with edits"),
        KeyBinding(
            [.tab], when: { $0.profile.focus == ProfileField.allCases.last && hasHistory($0) }, .enterList,
            help: "from the last field: into the history list shown"),
        KeyBinding([.tab, .down, .character("j")], .nextField, hint: "Tab move", help: "next field"),
        KeyBinding(
            [.character("k"), .character("t")], when: { $0.lower == .syncDetails && !$0.conflicts.isEmpty },
            .keepLocal,
            help: "a conflict in the sync details: k keeps this machine's value, t takes the server's"),
        KeyBinding([.backTab, .up, .character("k")], .previousField, help: "previous field"),
        KeyBinding(
            [.character("e")], when: { $0.profile.focus == .bio }, .editBioExternally, hint: "e editor",
            help: "on the bio: write it in $VISUAL or $EDITOR"),
        KeyBinding(
            [.character("l")], when: { $0.profile.focus.metric != nil && $0.lower == .history }, .openList,
            hint: "l list", help: "on a measurement: its history list, to remove or correct entries"),
        KeyBinding(
            [.character("r")], when: { $0.lower == .syncDetails }, .retryRejected, hint: "r retry",
            help: "retry rejected changes (sync details)"),
        KeyBinding(
            [.character("x")], when: { $0.lower == .syncDetails }, .discardRejected, hint: "x discard",
            help: "discard rejected changes (sync details)"),
        KeyBinding(
            [.character("i")], when: { $0.canImportHealth }, .importHealth, hint: "i import",
            help: "import health data (export.zip or export.xml) or measurements (a .csv file)"),
        KeyBinding(
            [.character("p")], .openProgress, hint: "p progress",
            help: "progress: the measurement's chart, trend and weekly rate (←/→ range, Tab metric, Esc back)"),
        KeyBinding([.character("s")], .syncNow, hint: "s sync", help: "sync now"),
        KeyBinding(
            [.character("u")], .undo, hint: "u undo", help: "undo the last saved change (again: the one before)"),
        KeyBinding(
            [.character("h")], .toggleLower, hint: "h details", help: "history of the measurement / sync details"),
        KeyBinding([.character("q")], .quit, hint: "q quit", help: "quit (asks first when edits are unsaved)"),
        KeyBinding(
            [.pageDown], when: { $0.lower == .syncDetails }, .scrollDetailsDown, hint: "PgUp/PgDn scroll",
            help: "scroll the sync details"),
        KeyBinding([.pageUp], when: { $0.lower == .syncDetails }, .scrollDetailsUp, help: "scroll the sync details"),
        KeyBinding([.character("?")], .help, hint: "? help", help: "this help"),

        KeyBinding(
            [.down, .character("j")], in: .list, .listDown, hint: "↑↓ choose", help: "in the list: the next entry"),
        KeyBinding([.up, .character("k")], in: .list, .listUp, help: "in the list: the previous entry"),
        KeyBinding([.character("d")], in: .list, .removeEntry, hint: "d remove", help: "in the list: remove the entry"),
        KeyBinding(
            [.character("e"), .enter], in: .list, .correctEntry, hint: "e correct",
            help: "in the list: correct the entry's value"),
        KeyBinding(
            [.tab], in: .list, .leaveListForward, hint: "Tab back", help: "in the list: back to the first field"),
        KeyBinding([.backTab, .escape], in: .list, .leaveList, help: "in the list: back to the field"),
    ]

    /// Keys that work everywhere, and while a field is edited; the help lists them after the table.
    static let elsewhere: [(keys: String, help: String)] = [
        ("Esc", "cancel the edit"),
        ("Ctrl-W, Alt-B/F, Ctrl-←/→", "in a field: delete a word, move by word"),
        ("Ctrl-L", "repaint the screen"),
        ("Ctrl-Z", "suspend (fg brings it back)"),
        ("Ctrl-C", "quit at once"),
    ]

    /// The binding `key` has in `state` (the list's first while it has the focus), if any.
    static func binding(for key: Key, in state: AppState) -> KeyBinding? {
        let places: [KeyBinding.Place] = state.historySelection == nil ? [.form] : [.list, .form]
        for place in places {
            if let binding = profile.first(where: {
                $0.place == place && $0.keys.contains(key) && $0.applies(to: state)
            }) {
                return binding
            }
        }
        return nil
    }

    /// The footer hints of the profile screen outside an edit, in order of importance.
    static func hints(_ state: AppState) -> [String] {
        let place: KeyBinding.Place = state.historySelection == nil ? .form : .list
        var hints = profile.filter { $0.place == place && $0.applies(to: state) }.compactMap(\.hint)
        // The list leaves undo and help to the form's bindings; the footer names them too.
        if place == .list {
            hints += profile.filter { $0.place == .form && [.undo, .help].contains($0.action) }.compactMap(\.hint)
        }
        if state.lower == .syncDetails, let index = hints.firstIndex(of: "h details") { hints[index] = "h history" }
        return hints
    }

    /// The help's lines: every binding of the table, then the keys that work elsewhere.
    static var helpRows: [(String, String)] {
        var rows: [(String, String)] = []
        for binding in profile where !rows.contains(where: { $0.0 == binding.shownKeys && $0.1 == binding.help }) {
            rows.append((binding.shownKeys, binding.help))
        }
        return rows + elsewhere.map { ($0.keys, $0.help) }
    }

    private static func hasHistory(_ state: AppState) -> Bool {
        state.lower == .history && !(state.account?.history(of: state.historyMetric).entries.isEmpty ?? true)
    }
}

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

extension AppState {
    /// The conflicts shown in the sync details.
    var conflicts: [FieldConflict] { account?.state.conflicts ?? [] }
}
