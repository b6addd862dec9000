import FitIQCore
import FitIQLocalization

/// The editor's keys (docs/keys.md).
enum KeyTable {
    /// Every binding, by place; within a place in order of importance: the first that matches a key
    /// wins, and the footer shows the hints that fit in this order.
    static let all: [KeyBinding] = anywhere + profile + editing + progress + today + todayHistory + commandLine + boxes

    static let anywhere: [KeyBinding] = [
        KeyBinding([.control("c")], in: .anywhere, .quitNow, help: Phrase("quit at once")),
        KeyBinding(
            [.control("l")], in: .anywhere, .repaint, help: Phrase("repaint the whole screen (after other output)")),
        KeyBinding(
            [.control("z")], in: .anywhere, .suspend,
            help: Phrase("suspend: the shell comes back; fg repaints the editor with its drafts and focus")),
        KeyBinding([.click(.hint)], in: .anywhere, .pressHint, help: Phrase("do what the hint's key does")),
    ]

    /// The profile screen's bindings, the form's then the list's.
    static let profile: [KeyBinding] = [
        KeyBinding(
            [.enter], .edit, hint: Phrase("Enter edit"),
            help: Phrase("edit the field (the unit system toggles, the language opens a list)")),
        KeyBinding(
            [.control("s")], .save, hint: Phrase("Ctrl-S save"),
            help: Phrase("save every form with edits, each its own request")),
        KeyBinding(
            [.tab], when: { $0.profile.focus == ProfileField.allCases.last && hasHistory($0) }, .enterList,
            help: Phrase("from the last field: into the history list shown")),
        KeyBinding([.tab, .down, .character("j")], .nextField, hint: Phrase("Tab move"), help: Phrase("next field")),
        KeyBinding(
            [.character("k"), .character("t")], when: { $0.lower == .syncDetails && !$0.conflicts.isEmpty },
            .keepLocal,
            help: Phrase("a conflict in the sync details: k keeps this machine's value, t takes the server's")),
        KeyBinding([.backTab, .up, .character("k")], .previousField, help: Phrase("previous field")),
        KeyBinding(
            [.click(.field)], .focusClicked,
            help: Phrase("focus the field; on the focused field, edit it as Enter does")),
        KeyBinding(
            [.click(.entry)], when: { $0.lower == .history }, .selectClicked,
            help: Phrase("choose the entry in the history list")),
        KeyBinding(
            [.wheelDown], when: { hasHistory($0) }, .enterList,
            help: Phrase("into the history list, to scroll it")),
        KeyBinding(
            [.character("e")], when: { $0.profile.focus == .bio }, .editBioExternally, hint: Phrase("e editor"),
            help: Phrase("on the bio: write it in $VISUAL or $EDITOR")),
        KeyBinding(
            [.character("l")], when: { $0.profile.focus.metric != nil && $0.lower == .history }, .openList,
            hint: Phrase("l list"), help: Phrase("on a measurement: its history list, to remove or correct entries")),
        KeyBinding(
            [.character("r")], when: { $0.lower == .syncDetails }, .retryRejected, hint: Phrase("r retry"),
            help: Phrase("retry rejected changes (sync details)")),
        KeyBinding(
            [.character("x")], when: { $0.lower == .syncDetails }, .discardRejected, hint: Phrase("x discard"),
            help: Phrase("discard rejected changes (sync details)")),
        KeyBinding(
            [.character("i")], when: { $0.canImportHealth }, .importHealth, hint: Phrase("i import"),
            help: Phrase("import your history: an Apple Health export, or another app's file, zip or folder")),
        KeyBinding(
            [.character("t")], .openToday, hint: Phrase("t today"),
            help: Phrase("Today: every metric's day, its 7-day average and goal; l logs one")),
        KeyBinding(
            [.character("p")], .openProgress, hint: Phrase("p progress"),
            help: Phrase("progress: the measurement's chart, trend and weekly rate")),
        KeyBinding([.character("s")], .syncNow, hint: Phrase("s sync"), help: Phrase("sync now")),
        KeyBinding(
            [.character("u")], .undo, hint: Phrase("u undo"),
            help: Phrase("undo the last saved change (again: the one before)")),
        KeyBinding(
            [.character("h")], .toggleLower, hint: Phrase("h details"),
            help: Phrase("history of the measurement / sync details")),
        KeyBinding(
            [.character("q")], .quit, hint: Phrase("q quit"), help: Phrase("quit (asks first when edits are unsaved)")),
        KeyBinding(
            [.pageDown, .wheelDown], when: { $0.lower == .syncDetails }, .scrollDetailsDown,
            hint: Phrase("PgUp/PgDn scroll"), help: Phrase("scroll the sync details")),
        KeyBinding(
            [.pageUp, .wheelUp], when: { $0.lower == .syncDetails }, .scrollDetailsUp,
            help: Phrase("scroll the sync details")),
        KeyBinding(
            [.character(":")], .openCommandLine, hint: Phrase(": command"),
            help: Phrase("a command line: set, save, sync, trend, goal, import, undo and the rest (help lists them)")),
        KeyBinding(
            [.character("a")], .openAccountLine,
            help: Phrase("another account signed in on this machine: :account EMAIL, Tab completes the email")),
        KeyBinding([.character("?")], .help, hint: Phrase("? help"), help: Phrase("this help")),

        KeyBinding(
            [.down, .character("j"), .wheelDown], in: .list, .listDown, hint: Phrase("↑↓ choose"),
            help: Phrase("the next entry")),
        KeyBinding([.up, .character("k"), .wheelUp], in: .list, .listUp, help: Phrase("the previous entry")),
        KeyBinding(
            [.character("d")], in: .list, .removeEntry, hint: Phrase("d remove"),
            help: Phrase("remove the entry (asks first)")),
        KeyBinding(
            [.character("e"), .enter], in: .list, .correctEntry, hint: Phrase("e correct"),
            help: Phrase("correct the entry's value")),
        KeyBinding(
            [.tab], in: .list, .leaveListForward, hint: Phrase("Tab back"), help: Phrase("back to the first field")),
        KeyBinding([.backTab, .escape], in: .list, .leaveList, help: Phrase("back to the field")),
    ]

    static let editing: [KeyBinding] = [
        KeyBinding(
            [.enter], in: .editing, .confirmEdit, hint: Phrase("Enter confirm"), help: Phrase("confirm the edit")),
        KeyBinding([.escape], in: .editing, .cancelEdit, hint: Phrase("Esc cancel"), help: Phrase("cancel the edit")),
        KeyBinding(
            [.control("s")], in: .editing, .confirmAndSave, hint: Phrase("Ctrl-S save all"),
            help: Phrase("confirm the edit, then save every form with edits")),
        KeyBinding(
            [.tab, .backTab], in: .editing, .confirmAndMove,
            help: Phrase("confirm the edit and move to the next or previous field")),
        KeyBinding(
            [], in: .editing, .typeText, hint: Phrase("←→ Home End move"),
            help: Phrase("move by character as you see it (é, 李, 🏃)"),
            named: Phrase("← / → / Home / End / Ctrl-A / Ctrl-E")),
        KeyBinding(
            [], in: .editing, .typeText, hint: Phrase("Ctrl-W word"),
            help: Phrase("delete the word before the cursor, move by word"),
            named: Phrase("Ctrl-W / Alt-B / Alt-F / Ctrl-← / Ctrl-→")),
        KeyBinding(
            [], in: .editing, .typeText, hint: Phrase("Backspace Delete"),
            help: Phrase("delete a character; Ctrl-U and Ctrl-K delete to the start and the end"),
            named: Phrase("Backspace / Delete / Ctrl-U / Ctrl-K")),
    ]

    static let progress: [KeyBinding] = [
        KeyBinding(
            [.right, .character("l"), .character("]")], in: .progress, .nextRange, hint: Phrase("←/→ range"),
            help: Phrase("the next range: 4 weeks, 3 months, 1 year, all")),
        KeyBinding(
            [.left, .character("h"), .character("[")], in: .progress, .previousRange, help: Phrase("the previous range")
        ),
        KeyBinding(
            [.tab, .character("m")], in: .progress, .nextSeries, hint: Phrase("Tab metric"),
            help: Phrase("the next metric: weight, body fat, height, BMI, then steps, water, sleep…")),
        KeyBinding([.backTab], in: .progress, .previousSeries, help: Phrase("the previous measurement")),
        KeyBinding(
            [.character("g")], in: .progress, when: { $0.progress.series.metric?.takesGoals == true }, .editGoal,
            hint: Phrase("g goal"),
            help: Phrase("set or clear the goal of the weight or body fat shown (kept on this machine)")),
        KeyBinding(
            [.character("t")], in: .progress, .toggleSummary, hint: Phrase("t table"),
            help: Phrase("the table by week, then by month, then the chart again")),
        KeyBinding(
            [.up, .character("k"), .wheelUp], in: .progress, when: { $0.progress.table != nil }, .scrollTableUp,
            help: Phrase("the table: older periods")),
        KeyBinding(
            [.down, .character("j"), .wheelDown], in: .progress, when: { $0.progress.table != nil },
            .scrollTableDown, help: Phrase("the table: newer periods")),
        KeyBinding(
            [.escape, .character("q"), .character("p")], in: .progress, .leaveProgress, hint: Phrase("Esc back"),
            help: Phrase("back to the profile")),
        KeyBinding(
            [.character(":")], in: .progress, .openCommandLine, hint: Phrase(": command"),
            help: Phrase("a command line, as on the profile")),
        KeyBinding([.character("?")], in: .progress, .help, hint: Phrase("? help"), help: Phrase("this help")),
    ]

    static let today: [KeyBinding] = [
        KeyBinding(
            [.character("l"), .enter], in: .today, .logChosen, hint: Phrase("l log"),
            help: Phrase("log the metric chosen: the command line opens with log METRIC, for the value")),
        KeyBinding(
            [.down, .character("j"), .wheelDown], in: .today, .todayDown, hint: Phrase("↑↓ choose"),
            help: Phrase("the next metric")),
        KeyBinding([.up, .character("k"), .wheelUp], in: .today, .todayUp, help: Phrase("the previous metric")),
        KeyBinding(
            [.character("p")], in: .today, .openChosenProgress, hint: Phrase("p progress"),
            help: Phrase("the chosen metric's chart and trend")),
        KeyBinding(
            [.character("h")], in: .today, .openChosenHistory, hint: Phrase("h history"),
            help: Phrase("the chosen metric's entries, by day, to remove or correct them")),
        KeyBinding(
            [.escape, .character("q"), .character("t")], in: .today, .leaveToday, hint: Phrase("Esc back"),
            help: Phrase("back to the profile")),
        KeyBinding(
            [.character(":")], in: .today, .openCommandLine, hint: Phrase(": command"),
            help: Phrase("a command line, as on the profile")),
        KeyBinding([.character("?")], in: .today, .help, hint: Phrase("? help"), help: Phrase("this help")),
    ]

    /// A metric's entries on the Today screen (`h`): the profile's history list's keys to choose, remove
    /// and correct, then its own.
    static let todayHistory: [KeyBinding] =
        profile.filter { $0.place == .list && [.listDown, .listUp, .removeEntry, .correctEntry].contains($0.action) }
        .map { $0.placed(in: .todayHistory) } + [
            KeyBinding(
                [.click(.entry)], in: .todayHistory, .selectClicked,
                help: Phrase("choose the entry in the history list")),
            KeyBinding(
                [.character("u")], in: .todayHistory, .undo, hint: Phrase("u undo"),
                help: Phrase("undo the last saved change (again: the one before)")),
            KeyBinding(
                [.escape, .character("h"), .character("q")], in: .todayHistory, .leaveList, hint: Phrase("Esc back"),
                help: Phrase("back to every metric's day")),
            KeyBinding(
                [.character(":")], in: .todayHistory, .openCommandLine, hint: Phrase(": command"),
                help: Phrase("a command line, as on the profile")),
            KeyBinding([.character("?")], in: .todayHistory, .help, hint: Phrase("? help"), help: Phrase("this help")),
        ]

    static let commandLine: [KeyBinding] = [
        KeyBinding(
            [.enter], in: .commandLine, .runCommand, hint: Phrase("Enter run"),
            help: Phrase("run the command; a mistake is said, and the line stays to be corrected")),
        KeyBinding(
            [.tab], in: .commandLine, .completeCommand, hint: Phrase("Tab complete"),
            help: Phrase("complete the command word, the field, the metric or the range")),
        KeyBinding(
            [.up], in: .commandLine, .recallEarlier, hint: Phrase("↑↓ earlier"),
            help: Phrase("the command run before (kept while the editor runs)")),
        KeyBinding([.down], in: .commandLine, .recallLater, help: Phrase("the command run after")),
        KeyBinding(
            [.escape, .click(.outside)], in: .commandLine, .closeCommandLine, hint: Phrase("Esc close"),
            help: Phrase("close the command line")),
        KeyBinding(
            [], in: .commandLine, .typeText, help: Phrase("edit the line as a field"),
            named: Phrase("← / → / Home / End / Backspace / Ctrl-W / Ctrl-U")),
    ]

    static let boxes: [KeyBinding] = [
        KeyBinding([.down, .character("j"), .wheelDown], in: .help, .scrollHelpDown, help: Phrase("scroll down")),
        KeyBinding([.up, .character("k"), .wheelUp], in: .help, .scrollHelpUp, help: Phrase("scroll up")),
        KeyBinding([.pageDown], in: .help, .pageHelpDown, help: Phrase("a page down")),
        KeyBinding([.pageUp], in: .help, .pageHelpUp, help: Phrase("a page up")),
        KeyBinding([], in: .help, .close, help: Phrase("close the help"), anyOtherKey: true),

        KeyBinding(
            [.character("y"), .character("Y")], in: .quitPrompt, .quitDiscarding,
            help: Phrase("quit, discarding the edits")),
        KeyBinding([.character("s"), .character("S")], in: .quitPrompt, .saveAndQuit, help: Phrase("save, then quit")),
        KeyBinding(
            [.character("n"), .character("N"), .escape, .click(.outside)], in: .quitPrompt, .close,
            help: Phrase("stay")),

        KeyBinding(
            [.character("y"), .character("Y")], in: .discardPrompt, .confirmDiscard,
            help: Phrase("drop the rejected changes; the server's values show again")),
        KeyBinding([], in: .discardPrompt, .close, help: Phrase("keep them"), anyOtherKey: true),

        KeyBinding([.enter], in: .importPrompt, .startImport, help: Phrase("import the file named")),
        KeyBinding([.escape, .click(.outside)], in: .importPrompt, .close, help: Phrase("cancel")),
        KeyBinding(
            [.escape, .click(.outside)], in: .importing, .cancelImport,
            help: Phrase("stop reading (nothing is imported)")),
        KeyBinding([.enter], in: .importPreview, .confirmImport, help: Phrase("import what was found")),
        KeyBinding(
            [.escape, .click(.outside)], in: .importPreview, .declineImport,
            help: Phrase("cancel: nothing is imported")),
        KeyBinding([], in: .importResult, .close, help: Phrase("close"), anyOtherKey: true, named: Phrase("any key")),

        KeyBinding(
            [.character("y"), .character("Y")], in: .removePrompt, .confirmRemoval,
            help: Phrase("remove it, here and on the server (u undoes it)")),
        KeyBinding([], in: .removePrompt, .close, help: Phrase("keep it"), anyOtherKey: true),

        KeyBinding([.enter], in: .correction, .confirmCorrection, help: Phrase("save the new value, in your units")),
        KeyBinding([.escape, .click(.outside)], in: .correction, .close, help: Phrase("cancel")),

        KeyBinding(
            [.enter], in: .goalPrompt, .confirmGoal,
            help: Phrase("set the goal typed (a value, then a date YYYY-MM-DD if any); empty clears it")),
        KeyBinding([.escape, .click(.outside)], in: .goalPrompt, .close, help: Phrase("cancel")),

        KeyBinding([.up, .wheelUp], in: .languagePicker, .pickerUp, help: Phrase("the previous language")),
        KeyBinding([.down, .wheelDown], in: .languagePicker, .pickerDown, help: Phrase("the next language")),
        KeyBinding(
            [.enter], in: .languagePicker, .pickLanguage,
            help: Phrase("pick it (or use the code typed); letters filter the list")),
        KeyBinding([.escape, .click(.outside)], in: .languagePicker, .close, help: Phrase("cancel")),
    ]

    /// The places that take keys in `state`, in the order they are asked: a box over the screen, else
    /// the screen's (the list's before the form's while it has the focus). The sign-in screen's keys
    /// are its form's own.
    static func places(_ state: AppState) -> [KeyBinding.Place] {
        if state.commandLine != nil { return [.commandLine] }
        if let overlay = state.overlay {
            switch overlay {
            case .help: return [.help]
            case .quitPrompt: return [.quitPrompt]
            case .discardPrompt: return [.discardPrompt]
            case .languagePicker: return [.languagePicker]
            case .importPrompt: return [.importPrompt]
            case .importing: return [.importing]
            case .importPreview: return [.importPreview]
            case .importResult: return [.importResult]
            case .deleteEntryPrompt: return [.removePrompt]
            case .correctEntry: return [.correction]
            case .goalPrompt: return [.goalPrompt]
            }
        }
        switch state.screen {
        case .signIn: return []
        case .progress: return [.progress]
        case .today: return state.today.history == nil ? [.today] : [.todayHistory]
        case .profile:
            if state.profile.editing != nil { return [.editing] }
            return state.historySelection == nil ? [.form] : [.list, .form]
        }
    }

    /// The binding `key` has in `state`, if any: the keys of ``anywhere`` first, then those of each
    /// place in turn, then a place's "any other key".
    static func binding(for key: Key, in state: AppState) -> KeyBinding? {
        if let global = anywhere.first(where: { $0.keys.contains(key) }) { return global }
        for place in places(state) {
            let bindings = all.filter { $0.place == place && $0.applies(to: state) }
            if let binding = bindings.first(where: { $0.keys.contains(key) }) { return binding }
            // The mouse is never "any other key": a turn of the wheel does not answer a question. A
            // click outside the box does, as Esc does.
            if key.isMouse && key != .click(.outside) { continue }
            if let other = bindings.first(where: \.isAnyOtherKey) { return other }
        }
        return nil
    }

    /// The binding whose footer hint reads `text` in `state` (a click on it does what it does).
    static func binding(forHint text: String, in state: AppState) -> KeyBinding? {
        var places = places(state)
        if places.first == .list || places.first == .editing { places.append(.form) }
        // The sync details name `h details` `h history`.
        let text = state.lower == .syncDetails && text == tr("h history") ? tr("h details") : text
        for place in places {
            if let binding = all.first(where: { $0.place == place && $0.applies(to: state) && $0.hint == text }) {
                return binding
            }
        }
        return nil
    }

    /// The footer hints of the screen, in order of importance.
    static func hints(_ state: AppState) -> [String] {
        guard let place = places(state).first else { return [] }
        var hints = all.filter { $0.place == place && $0.applies(to: state) }.compactMap(\.hint)
        // The list leaves undo and help to the form's bindings; the footer names them too.
        if place == .list {
            hints += profile.filter { $0.place == .form && [.undo, .help].contains($0.action) }.compactMap(\.hint)
        }
        if place == .editing { hints.append(tr("? help")) }
        if state.lower == .syncDetails, let index = hints.firstIndex(of: tr("h details")) {
            hints[index] = tr("h history")
        }
        return hints
    }

    /// The help's sections: each place's title and its rows (keys, what they do), every binding once.
    static var helpSections: [(title: String, rows: [(keys: String, help: String)])] {
        KeyBinding.Place.allCases.compactMap { place in
            var rows: [(keys: String, help: String)] = []
            for binding in all where binding.place == place {
                let row = (keys: binding.shownKeys, help: binding.help)
                if !rows.contains(where: { $0 == row }) { rows.append(row) }
            }
            return rows.isEmpty ? nil : (place.title, rows)
        }
    }

    /// The key table of docs/keys.md: one table, the place heading each group of rows.
    static var markdown: String {
        var lines = ["| where | keys | does |", "|---|---|---|"]
        for section in helpSections {
            for (index, row) in section.rows.enumerated() {
                let keys = row.keys.replacing("|", with: "\\|")
                lines.append("| \(index == 0 ? section.title : "") | \(keys) | \(row.help) |")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func hasHistory(_ state: AppState) -> Bool {
        state.lower == .history && !(state.account?.history(of: state.historyMetric).entries.isEmpty ?? true)
    }
}

extension AppState {
    /// The conflicts shown in the sync details.
    var conflicts: [FieldConflict] { account?.conflicts ?? [] }
}
