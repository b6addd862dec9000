import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keys on the profile screen: outside an edit letters are commands; Enter edits or confirms. The
/// history panel follows the measurement last focused.
func handleProfile(_ state: inout AppState, _ key: Key) -> [Effect] {
    let effects = handleProfileKey(&state, key)
    if let metric = state.profile.focus.metric, metric != state.historyMetric, state.historySelection == nil {
        state.historyMetric = metric
    }
    return effects
}

private func handleProfileKey(_ state: inout AppState, _ key: Key) -> [Effect] {
    if let editing = state.profile.editing { return handleEditing(&state, editing.field, editing.editor, key) }
    if let selected = state.historySelection, let effects = handleHistory(&state, selected, key) { return effects }
    let fields = ProfileField.allCases
    let index = fields.firstIndex(of: state.profile.focus) ?? 0
    let entries = state.account?.history(of: state.historyMetric).entries ?? []
    // While the sync details show a conflict, `k` keeps this machine's value and `t` takes the
    // server's, for the first one listed (↑ still moves between fields).
    if state.lower == .syncDetails, key == .character("k") || key == .character("t"),
        let conflict = state.account?.state.conflicts.first
    {
        return [.resolveConflict(field: conflict.field, keepLocal: key == .character("k"))]
    }
    switch key {
    case .tab where state.profile.focus == fields.last && state.lower == .history && !entries.isEmpty:
        // From the last field into the history list.
        state.historySelection = 0
    case .character("l") where state.profile.focus.metric != nil && state.lower == .history:
        // Straight into the focused measurement's list (Tab would pass the other measurements).
        let metric = state.profile.focus.metric ?? state.historyMetric
        state.historyMetric = metric
        if state.account?.history(of: metric).entries.isEmpty ?? true {
            state.message = ("No \(state.historyMetric.field.label.lowercased()) entries yet.", false)
        } else {
            state.historySelection = 0
        }
    case .tab, .down, .character("j"):
        state.profile.focus = fields[(index + 1) % fields.count]
    case .backTab, .up, .character("k"):
        state.profile.focus = fields[(index + fields.count - 1) % fields.count]
    case .character("u"):
        return [.undo]
    case .enter:
        startEditing(&state, state.profile.focus)
    case .control("s"):
        return saveAll(&state)
    case .character("h"):
        state.lower = state.lower == .history ? .syncDetails : .history
        state.detailsScroll = 0
    case .pageDown where state.lower == .syncDetails:
        state.detailsScroll += max(1, state.size.height / 3)
    case .pageUp where state.lower == .syncDetails:
        state.detailsScroll = max(0, state.detailsScroll - max(1, state.size.height / 3))
    case .character("s"):
        state.message = ("Syncing…", false)
        return [.syncNow]
    case .character("?"):
        state.overlay = .help
    case .character("e") where state.profile.focus == .bio:
        // Long text in the user's own editor; what comes back is checked like typed text.
        return [.editExternally(.bio, text: ProfileValues(state).text(.bio))]
    case .character("i") where state.canImportHealth:
        state.overlay = .importPrompt(path: TextField(""), error: nil)
    case .character("r") where state.lower == .syncDetails:
        return [.retryRejected]
    case .character("x") where state.lower == .syncDetails:
        if (state.account?.state.rejectedChangeCount ?? 0) > 0 { state.overlay = .discardPrompt }
    case .character("q"):
        if state.hasUnsavedEdits {
            state.overlay = .quitPrompt
            return []
        }
        state.shouldQuit = true
        return [.quit]
    default:
        break
    }
    return []
}

/// Keys while the history list has the focus; `nil` for keys it leaves to the profile screen.
private func handleHistory(_ state: inout AppState, _ selected: Int, _ key: Key) -> [Effect]? {
    let metric = state.historyMetric
    let entries = state.account?.history(of: metric).entries ?? []
    guard entries.indices.contains(selected) else {
        state.historySelection = entries.isEmpty ? nil : entries.count - 1
        return state.historySelection == nil ? nil : []
    }
    let entry = entries[selected]
    let units = ProfileValues(state).unitSystem
    let summary =
        "\(metric.format(entry.quantity, unitSystem: units)) of \(CalendarDate(containing: entry.loggedAt, in: state.timeZone))"
    switch key {
    case .down, .character("j"):
        state.historySelection = min(entries.count - 1, selected + 1)
    case .up, .character("k"):
        state.historySelection = max(0, selected - 1)
    case .tab:
        state.historySelection = nil
        state.profile.focus = .name
    case .backTab, .escape:
        state.historySelection = nil
    case .character("d"):
        state.overlay = .deleteEntryPrompt(metric, id: AccountState.publicId(of: entry), summary: summary)
    case .character("e"), .enter:
        var value = TextField(metric.format(entry.quantity, unitSystem: units), limit: ProfileField.height.limit)
        value.cursor = value.text.count
        state.overlay = .correctEntry(
            metric, id: AccountState.publicId(of: entry), summary: summary, value: value, error: nil)
    default:
        return nil
    }
    return []
}

private func startEditing(_ state: inout AppState, _ field: ProfileField) {
    switch field {
    case .dateOfBirth, .biologicalSex, .bmi:
        // Read-only: set at registration, only from the health source, or derived.
        state.message = (readOnlyReason(field, canImport: state.canImportHealth), false)
    case .unitSystem:
        let current = ProfileValues(state).text(.unitSystem)
        setDraft(&state, .unitSystem, current == UnitSystem.metric.rawValue ? "imperial" : "metric")
    case .language:
        state.overlay = .languagePicker(filter: TextField(""), selection: 0)
    default:
        var editor = TextField(ProfileValues(state).text(field))
        editor.limit = field.limit
        state.profile.editing = (field, editor)
    }
}

func readOnlyReason(_ field: ProfileField, canImport: Bool) -> String {
    switch field {
    case .dateOfBirth: "Date of birth is set at registration and cannot be changed here."
    case .bmi: "BMI is derived from your latest weight and your height then; it is never typed."
    default:
        "Biological sex comes only from your health data; it cannot be edited."
            + (canImport ? " Press i to import it." : "")
    }
}

private func handleEditing(_ state: inout AppState, _ field: ProfileField, _ editor: TextField, _ key: Key) -> [Effect]
{
    var editor = editor
    switch key {
    case .escape:
        state.profile.editing = nil
        state.profile.errors[field] = nil
    case .enter:
        _ = confirmEdit(&state, field, editor.text)
    case .control("s"):
        guard confirmEdit(&state, field, editor.text) else { return [] }
        return saveAll(&state)
    case .tab, .backTab:
        // Moving away confirms, as in most form editors.
        guard confirmEdit(&state, field, editor.text) else { return [] }
        return handleProfileKey(&state, key)
    default:
        let before = editor.text
        if editor.handle(key) {
            state.profile.editing = (field, editor)
            state.profile.errors[field] = nil
            // A character refused at the length limit: say so instead of ignoring the key silently.
            if case .character = key, editor.text == before, let limit = editor.limit {
                state.profile.errors[field] = "\(field.label) can be at most \(limit) characters; no more can be typed."
            }
        }
    }
    return []
}

/// Ends the edit of `field` with `text` as its draft; `false` (edit kept open) when the text breaks a rule.
func confirmEdit(_ state: inout AppState, _ field: ProfileField, _ text: String) -> Bool {
    let values = ProfileValues(state)
    if let metric = field.metric {
        // The one place a typed measurement is parsed: from here it travels in its unit (cm, kg, %).
        do {
            state.profile.draftValues[field] = try metric.parse(text, unitSystem: values.unitSystem)
        } catch {
            state.profile.errors[field] = error.description
            return false
        }
    } else if let problem = values.problem(field, text) {
        state.profile.errors[field] = problem
        return false
    }
    state.profile.editing = nil
    state.profile.errors[field] = nil
    setDraft(&state, field, text)
    return true
}

/// Records `text` as the draft of `field`, or drops the draft when it shows the saved value again.
func setDraft(_ state: inout AppState, _ field: ProfileField, _ text: String) {
    let saved = ProfileValues(state, includingDrafts: false).text(field)
    state.profile.drafts[field] = text == saved ? nil : text
}

/// Ctrl-S: validates every form with drafts and saves each that is valid as its own request.
func saveAll(_ state: inout AppState) -> [Effect] {
    let values = ProfileValues(state)
    var effects: [Effect] = []
    state.profile.errors = [:]
    // A measurement draft was parsed when its field was confirmed; the other drafts are checked again here.
    for field in state.profile.drafts.keys where field.metric == nil {
        if let problem = values.problem(field, values.text(field)) { state.profile.errors[field] = problem }
    }
    let metadataDrafts = state.profile.drafts.keys.contains { $0.form == .metadata }
    let metadataErrors = state.profile.errors.keys.contains { $0.form == .metadata }
    if metadataDrafts && !metadataErrors, let units = UnitSystem(rawValue: values.text(.unitSystem)) {
        effects.append(
            .saveMetadata(
                name: values.text(.name), bio: values.text(.bio), unitSystem: units,
                languageCode: values.text(.language)))
    }
    for field in ProfileField.physicalFields {
        if let metric = field.metric, state.profile.drafts[field] != nil, let value = state.profile.draftValues[field] {
            effects.append(.saveMeasurement(metric, value: value))
        }
    }
    if effects.isEmpty && state.profile.drafts.isEmpty { state.message = ("Nothing to save.", false) }
    if !state.profile.errors.isEmpty { state.message = ("Fix the marked fields; nothing was sent for them.", true) }
    return effects
}
