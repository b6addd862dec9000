import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A key: what the key table binds it to where it was pressed (``KeyTable/binding(for:in:)``), else text
/// typed into the field of that place (the sign-in form takes its keys itself).
func handleKey(_ state: inout AppState, _ key: Key) -> [Effect] {
    guard let binding = KeyTable.binding(for: key, in: state), binding.action != .typeText else {
        return key.isMouse ? [] : type(key, &state)
    }
    return perform(binding, key: key, &state)
}

/// Does what `binding` does, for `key`.
func perform(_ binding: KeyBinding, key: Key, _ state: inout AppState) -> [Effect] {
    let action = binding.action
    switch binding.place {
    case .anywhere:
        switch action {
        case .quitNow:
            state.shouldQuit = true
            return [.quit]
        case .repaint: return [.repaint]
        case .pressHint: return pressHint(&state)
        default: return [.suspend]
        }
    case .form, .list:
        if action == .openCommandLine { return openCommandLine(&state) }
        if action == .openAccountLine { return openAccountLine(&state) }
        return performOnProfile(action, key: key, &state)
    case .commandLine: return performOnCommandLine(action, &state)
    case .editing: return performWhileEditing(action, key: key, &state)
    case .progress, .today, .todayHistory:
        if action == .help {
            state.overlay = .help
            return []
        }
        if action == .openCommandLine { return openCommandLine(&state) }
        return binding.place == .progress ? performOnProgress(action, &state) : performOnToday(action, &state)
    case .help, .quitPrompt, .discardPrompt, .importPrompt, .importing, .importPreview, .importResult, .removePrompt,
        .correction,
        .goalPrompt, .languagePicker:
        return performInBox(action, &state)
    }
}

/// A key no binding takes: text for the field of the place it was pressed in.
private func type(_ key: Key, _ state: inout AppState) -> [Effect] {
    if var line = state.commandLine {
        if line.handle(key) {
            state.commandLine = line
            state.commandRecall = nil
        }
        return []
    }
    switch state.overlay {
    case .importPrompt(var path, _)?:
        if path.handle(key) { state.overlay = .importPrompt(path: path, error: nil) }
    case .correctEntry(let metric, let id, let summary, var value, _)?:
        if value.handle(key) {
            state.overlay = .correctEntry(metric, id: id, summary: summary, value: value, error: nil)
        }
    case .goalPrompt(let metric, var value, _)?:
        if value.handle(key) { state.overlay = .goalPrompt(metric, value: value, error: nil) }
    case .languagePicker(var filter, var selection)?:
        if filter.handle(key) { selection = 0 }
        state.overlay = .languagePicker(filter: filter, selection: selection)
    case nil:
        switch state.screen {
        case .signIn: return handleSignIn(&state, key)
        case .profile: typeWhileEditing(key, &state)
        case .progress, .today: break
        }
    default:
        break
    }
    return []
}

/// What the keys of the boxes over the screen do (``KeyTable/boxes``).
private func performInBox(_ action: KeyAction, _ state: inout AppState) -> [Effect] {
    let page = max(1, state.size.height - 4)
    switch action {
    case .scrollHelpDown: state.helpScroll += 1
    case .scrollHelpUp: state.helpScroll = max(0, state.helpScroll - 1)
    case .pageHelpDown: state.helpScroll += page
    case .pageHelpUp: state.helpScroll = max(0, state.helpScroll - page)
    case .close:
        state.overlay = nil
        state.helpScroll = 0
    case .quitDiscarding:
        state.shouldQuit = true
        return [.quit]
    case .saveAndQuit:
        state.overlay = nil
        let effects = saveAll(&state)
        guard !effects.isEmpty || state.profile.drafts.isEmpty else { return [] }
        state.shouldQuit = true
        return effects + [.quit]
    case .confirmDiscard:
        state.overlay = nil
        return [.discardRejected]
    case .startImport:
        guard case .importPrompt(let path, _) = state.overlay else { return [] }
        let typed = path.text.trimmingSpaces()
        guard !typed.isEmpty else {
            state.overlay = .importPrompt(
                path: path, error: tr("Path: type where the export's file, zip or folder is."))
            return []
        }
        state.overlay = .importing(path: path, fraction: 0)
        return [.importHealth(path: typed)]
    case .cancelImport:
        // The screen stays live while the file is read; Esc stops the reading (nothing is imported).
        return [.cancelImport]
    case .confirmImport:
        guard case .importPreview(let path, _) = state.overlay else { return [] }
        state.overlay = .importing(path: path, fraction: nil)
        return [.confirmImport]
    case .declineImport:
        state.overlay = nil
        state.message = (tr("Nothing was imported."), false)
        return [.declineImport]
    case .confirmRemoval:
        guard case .deleteEntryPrompt(let metric, let id, _) = state.overlay else { return [] }
        state.overlay = nil
        return [.deleteEntry(metric, id: id)]
    case .confirmCorrection:
        guard case .correctEntry(let metric, let id, let summary, let value, _) = state.overlay else { return [] }
        // Checked like a typed value of the metric, in the units shown.
        do {
            let parsed = try metric.parse(value.text, unitSystem: ProfileValues(state).unitSystem)
            state.overlay = nil
            return [.correctEntry(metric, id: id, value: parsed)]
        } catch {
            state.overlay = .correctEntry(metric, id: id, summary: summary, value: value, error: error.description)
        }
    case .confirmGoal:
        guard case .goalPrompt(let metric, let value, _) = state.overlay else { return [] }
        let words = value.text.split(separator: " ").map(String.init)
        guard !words.isEmpty else {
            state.overlay = nil
            return [.clearGoal(metric)]
        }
        // A date, when the last word is one; the rest is the value, typed as the metric is.
        let date = words.count > 1 && words.last?.contains("-") == true ? words.last : nil
        let target = (date == nil ? words : words.dropLast()).joined(separator: " ")
        do {
            let goal = try Goal.parse(
                metric: metric.id, target: target, by: date, unitSystem: ProfileValues(state).unitSystem,
                today: CalendarDate(containing: state.now, in: state.timeZone))
            state.overlay = nil
            return [.setGoal(goal.metric, target: goal.target, by: goal.by)]
        } catch {
            state.overlay = .goalPrompt(metric, value: value, error: error.description)
        }
    case .pickerUp, .pickerDown, .pickLanguage:
        guard case .languagePicker(let filter, let selection) = state.overlay else { return [] }
        let choices = LanguageChoices.matching(filter.text)
        switch action {
        case .pickerUp:
            state.overlay = .languagePicker(filter: filter, selection: max(0, selection - 1))
        case .pickerDown:
            state.overlay = .languagePicker(filter: filter, selection: min(max(0, choices.count - 1), selection + 1))
        default:
            let picked = choices.indices.contains(selection) ? choices[selection].code : filter.text
            state.overlay = nil
            setDraft(&state, .language, picked)
        }
    default:
        break
    }
    return []
}
