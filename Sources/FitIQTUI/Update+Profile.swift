import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Does what a key of the profile screen's form or list is bound to (``KeyTable/profile``); the history
/// panel then follows the measurement last focused.
func performOnProfile(_ action: KeyAction, key: Key, _ state: inout AppState) -> [Effect] {
    if let selected = state.historySelection {
        // The list's entries may have changed under it (a sync, a removal): the choice stays in range.
        let count = state.account?.history(of: state.historyMetric).entries.count ?? 0
        if selected >= count {
            state.historySelection = count == 0 ? nil : count - 1
            if count > 0 { return [] }
        }
    }
    let effects = perform(action, key: key, &state)
    if let metric = state.profile.focus.metric, metric != state.historyMetric, state.historySelection == nil {
        state.historyMetric = metric
    }
    return effects
}

/// Does what the key table binds a key to.
private func perform(_ action: KeyAction, key: Key, _ state: inout AppState) -> [Effect] {
    let fields = ProfileField.allCases
    let index = fields.firstIndex(of: state.profile.focus) ?? 0
    switch action {
    case .enterList:
        state.historySelection = 0
    case .focusClicked:
        guard case .field(let field)? = state.clicked else { return [] }
        if field == state.profile.focus && state.historySelection == nil {
            startEditing(&state, field)
        } else {
            state.profile.focus = field
            state.historySelection = nil
        }
    case .selectClicked:
        guard case .entry(let index)? = state.clicked else { return [] }
        state.historySelection = index
    case .nextField:
        state.profile.focus = fields[(index + 1) % fields.count]
    case .previousField:
        state.profile.focus = fields[(index + fields.count - 1) % fields.count]
    case .keepLocal, .takeServer:
        // The first conflict listed (↑ still moves between fields).
        guard let conflict = state.conflicts.first else { return [] }
        return [.resolveConflict(field: conflict.field, keepLocal: key == .character("k"))]
    case .openList:
        // Straight into the focused measurement's list (Tab would pass the other measurements).
        let metric = state.profile.focus.metric ?? state.historyMetric
        state.historyMetric = metric
        if state.account?.history(of: metric).entries.isEmpty ?? true {
            state.message = (metric.noEntriesYet, false)
        } else {
            state.historySelection = 0
        }
    case .undo:
        return [.undo]
    case .openProgress:
        return openProgress(&state)
    case .openToday:
        return openToday(&state)
    case .edit:
        startEditing(&state, state.profile.focus)
    case .save:
        return saveAll(&state)
    case .toggleLower:
        state.lower = state.lower == .history ? .syncDetails : .history
        state.detailsScroll = 0
    case .scrollDetailsDown:
        state.detailsScroll += max(1, state.size.height / 3)
    case .scrollDetailsUp:
        state.detailsScroll = max(0, state.detailsScroll - max(1, state.size.height / 3))
    case .syncNow:
        state.message = (tr("Syncing…"), false)
        return [.syncNow]
    case .help:
        state.overlay = .help
    case .editBioExternally:
        // Long text in the user's own editor; what comes back is checked like typed text.
        return [.editExternally(.bio, text: ProfileValues(state).text(.bio))]
    case .importHealth:
        state.overlay = .importPrompt(path: TextField(""), error: nil)
    case .retryRejected:
        return [.retryRejected]
    case .discardRejected:
        if (state.account?.rejectedCount ?? 0) > 0 { state.overlay = .discardPrompt }
    case .quit:
        if state.hasUnsavedEdits {
            state.overlay = .quitPrompt
            return []
        }
        state.shouldQuit = true
        return [.quit]
    case .listDown, .listUp, .leaveListForward, .leaveList, .removeEntry, .correctEntry:
        performInList(action, &state)
    default:
        break
    }
    return []
}

/// The list's own keys (see ``KeyTable``); the choice is in range (checked by the caller).
private func performInList(_ action: KeyAction, _ state: inout AppState) {
    guard let selected = state.historySelection else { return }
    switch action {
    case .leaveListForward:
        state.historySelection = nil
        state.profile.focus = .name
    case .leaveList:
        state.historySelection = nil
    default:
        let entries = state.account?.history(of: state.historyMetric).entries ?? []
        state.historySelection = performOnEntries(
            action, on: entries, of: state.historyMetric, chosen: selected, &state)
    }
}

/// What a history list's keys do with the entry `chosen` of `entries` (`metric`'s, newest first, as
/// listed), in the profile's list and on the Today screen alike: choose another, or ask to remove or
/// correct it (a box over the screen, whose answer goes through ``Effect/deleteEntry(_:id:)`` or
/// ``Effect/correctEntry(_:id:value:)``). Returns the entry chosen then.
func performOnEntries(
    _ action: KeyAction, on entries: [ProgressEntry], of metric: Metric, chosen selected: Int,
    _ state: inout AppState
) -> Int {
    guard entries.indices.contains(selected) else { return selected }
    let entry = entries[selected]
    let units = ProfileValues(state).unitSystem
    let summary = tr(
        "{value} of {day}",
        [
            "value": metric.format(entry.quantity, unitSystem: units),
            "day": CalendarDate(containing: entry.loggedAt, in: state.timeZone).description,
        ])
    switch action {
    case .listDown:
        return min(entries.count - 1, selected + 1)
    case .listUp:
        return max(0, selected - 1)
    case .removeEntry:
        state.overlay = .deleteEntryPrompt(metric, id: entry.publicId, summary: summary)
    case .correctEntry:
        var value = TextField(metric.format(entry.quantity, unitSystem: units), limit: ProfileField.height.limit)
        value.cursor = value.text.count
        state.overlay = .correctEntry(
            metric, id: entry.publicId, summary: summary, value: value, error: nil)
    default:
        break
    }
    return selected
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

/// Why `field` cannot be typed into, and where its value comes from.
public func readOnlyReason(_ field: ProfileField, canImport: Bool) -> String {
    switch field {
    case .dateOfBirth: tr("Date of birth is set at registration and cannot be changed here.")
    case .bmi: tr("BMI is derived from your latest weight and your height then; it is never typed.")
    default:
        tr("Biological sex comes only from your health data; it cannot be edited.")
            + (canImport ? " " + tr("Press i to import it.") : "")
    }
}

/// What the keys of a field being edited do (``KeyTable/editing``); moving away confirms, as in most
/// form editors.
func performWhileEditing(_ action: KeyAction, key: Key, _ state: inout AppState) -> [Effect] {
    guard let (field, editor) = state.profile.editing else { return [] }
    switch action {
    case .cancelEdit:
        state.profile.editing = nil
        state.profile.errors[field] = nil
    case .confirmEdit:
        _ = confirmEdit(&state, field, editor.text)
    case .confirmAndSave:
        guard confirmEdit(&state, field, editor.text) else { return [] }
        return saveAll(&state)
    case .confirmAndMove:
        guard confirmEdit(&state, field, editor.text), let binding = KeyTable.binding(for: key, in: state) else {
            return []
        }
        return performOnProfile(binding.action, key: key, &state)
    default:
        break
    }
    return []
}

/// A key no binding takes, typed into the field being edited; a character refused at the length
/// limit says so instead of being ignored silently.
func typeWhileEditing(_ key: Key, _ state: inout AppState) {
    guard let (field, typed) = state.profile.editing else { return }
    var editor = typed
    let before = editor.text
    guard editor.handle(key) else { return }
    state.profile.editing = (field, editor)
    state.profile.errors[field] = nil
    if case .character = key, editor.text == before, let limit = editor.limit {
        state.profile.errors[field] = typingLimitMessage(field.label, limit: limit)
    }
}

/// Ends the edit of `field` with `text` as its draft; `false` (edit kept open) when the text breaks a rule.
func confirmEdit(_ state: inout AppState, _ field: ProfileField, _ text: String) -> Bool {
    guard let editable = field.editable else { return false }
    do {
        try state.profile.edits.set(editable, text, over: state.account)
    } catch {
        state.profile.errors[field] = error.description
        return false
    }
    state.profile.editing = nil
    state.profile.errors[field] = nil
    return true
}

/// Records `text`, a choice made in a list, as the draft of `field` (checked when saved), or drops the
/// draft when it shows the saved value again.
func setDraft(_ state: inout AppState, _ field: ProfileField, _ text: String) {
    guard let editable = field.editable else { return }
    state.profile.edits.choose(editable, text, over: state.account)
}

/// Ctrl-S: validates every form with drafts and saves each that is valid as its own request.
func saveAll(_ state: inout AppState) -> [Effect] {
    let (requests, problems) = state.profile.edits.changes(over: state.account)
    state.profile.errors = [:]
    for (field, problem) in problems {
        if let shown = ProfileField(field) { state.profile.errors[shown] = problem.description }
    }
    let effects = requests.map { Effect.save($0) }
    if effects.isEmpty && state.profile.edits.drafts.isEmpty { state.message = (tr("Nothing to save."), false) }
    if !state.profile.errors.isEmpty { state.message = (tr("Fix the marked fields; nothing was sent for them."), true) }
    return effects
}

/// The message under a field that takes no more characters.
func typingLimitMessage(_ label: String, limit: Int) -> String {
    tr("{field} can be at most {limit} characters; no more can be typed.", ["field": label, "limit": String(limit)])
}
