import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Applies `event` to `state` and returns the work to do; never does I/O itself.
public func update(_ state: inout AppState, _ event: Event) -> [Effect] {
    switch event {
    case .input(.resize(let width, let height)):
        state.size = (width, height)
        return []
    case .input(.paste(let text)):
        return handlePaste(&state, text)
    case .input(.repaint):
        return [.repaint]
    case .input(.key(let key)):
        if key == .control("c") {
            state.shouldQuit = true
            return [.quit]
        }
        if key == .control("l") { return [.repaint] }
        if key == .control("z") { return [.suspend] }
        if let overlay = state.overlay { return handleOverlay(&state, overlay, key) }
        switch state.screen {
        case .signIn: return handleSignIn(&state, key)
        case .profile: return handleProfile(&state, key)
        case .progress: return handleProgress(&state, key)
        }
    case .accountChanged(let snapshot):
        let wasSignIn = state.screen == .signIn
        state.account = snapshot
        if state.screen == .progress {
            // A sync or a save: the chart stays, and is read again (the old one shows until then).
            state.progress.histories = [:]
            return [.loadProgress(state.progress.series)]
        }
        state.screen = .profile
        if wasSignIn {
            state.signIn = SignInForm()
            state.message = ("Signed in as \(TextSanitizer.sanitize(snapshot.email)).", false)
        }
        return []
    case .connection(let connection):
        state.connection = connection
        return []
    case .signInFailed(let message):
        state.signIn.busy = false
        state.message = (TextSanitizer.sanitize(message), true)
        return []
    case .saved(let target, let error):
        if let error {
            state.message = (TextSanitizer.sanitize(error), true)
            return []
        }
        for field in target.fields { state.profile.drafts[field] = nil }
        state.message = (target.savedMessage, false)
        return []
    case .nothingToSave(let target):
        for field in target.fields { state.profile.drafts[field] = nil }
        state.message = ("Nothing to save.", false)
        return []
    case .tick(let date):
        state.now = date
        return []
    case .healthImport(let progress):
        handleImportProgress(&state, progress)
        return []
    case .externalEdit(let field, let outcome):
        handleExternalEdit(&state, field, outcome)
        return []
    case .notice(let text, let isError):
        state.message = (TextSanitizer.sanitize(text), isError)
        return []
    case .progressLoaded(let history):
        // Kept for its series; shown only if that is the one on show (not one left meanwhile). The
        // range is cut here, so a range changed meanwhile is the one shown.
        state.progress.histories[history.series] = history
        if history.series == state.progress.series { state.progress.cut(now: state.now, in: state.timeZone) }
        return []
    }
}

/// A paste is text, never keys: it goes into the field being typed in, on one line; elsewhere it is
/// ignored with a hint.
private func handlePaste(_ state: inout AppState, _ text: String) -> [Effect] {
    let (line, changes) = PastedText.oneLine(text)
    func paste(into field: inout TextField, label: String) {
        let fitted = field.insert(text: line)
        var sentences = PastedText.summary(changes).map { [$0] } ?? []
        if !fitted, let limit = field.limit {
            sentences.append("\(label) can be at most \(limit) characters; the rest of the paste was left out.")
        }
        state.message = sentences.isEmpty ? nil : (sentences.joined(separator: " "), !fitted)
    }
    switch state.overlay {
    case .importPrompt(var path, _)?:
        paste(into: &path, label: "Path")
        state.overlay = .importPrompt(path: path, error: nil)
        return []
    case .languagePicker(var filter, _)?:
        paste(into: &filter, label: "Language")
        state.overlay = .languagePicker(filter: filter, selection: 0)
        return []
    case nil:
        break
    default:
        return []
    }
    switch state.screen {
    case .progress:
        return []
    case .signIn:
        var field = state.signIn.fields[state.signIn.focus] ?? TextField("")
        paste(into: &field, label: state.signIn.focus.label)
        state.signIn.fields[state.signIn.focus] = field
    case .profile:
        guard var (field, editor) = state.profile.editing else {
            state.message = ("Press Enter on a field first to paste into it.", false)
            return []
        }
        paste(into: &editor, label: field.label)
        state.profile.editing = (field, editor)
        if editor.limit != nil, state.message?.isError == true {
            state.profile.errors[field] =
                "\(field.label) can be at most \(editor.limit ?? 0) characters; no more can be typed."
        }
    }
    return []
}

/// The text back from the user's editor goes through the field like typed text: one line, the same
/// rules; a failed or missing editor leaves the field as it was.
private func handleExternalEdit(_ state: inout AppState, _ field: ProfileField, _ outcome: ExternalEditOutcome) {
    switch outcome {
    case .failed(let message):
        state.message = (TextSanitizer.sanitize(message), true)
    case .edited(let text):
        let (line, changes) = PastedText.oneLine(text)
        var editor = TextField(line)
        editor.limit = field.limit
        state.profile.focus = field
        state.profile.editing = (field, editor)
        state.message = PastedText.summary(changes, what: "From your editor").map { ($0, false) }
        _ = confirmEdit(&state, field, line)
    }
}

private func handleImportProgress(_ state: inout AppState, _ progress: HealthImportProgress) {
    guard case .importing(let path, _) = state.overlay else { return }
    switch progress {
    case .reading(let fraction):
        state.overlay = .importing(path: path, fraction: fraction)
    case .failed(let message):
        state.overlay = .importPrompt(path: path, error: TextSanitizer.sanitize(message))
    case .finished(let lines):
        state.overlay = .importResult(lines.map(TextSanitizer.sanitize))
        state.message = ("Health data imported.", false)
    }
}

private func handleOverlay(_ state: inout AppState, _ overlay: AppState.Overlay, _ key: Key) -> [Effect] {
    switch overlay {
    case .help:
        let page = max(1, state.size.height - 4)
        switch key {
        case .down, .character("j"): state.helpScroll += 1
        case .up, .character("k"): state.helpScroll = max(0, state.helpScroll - 1)
        case .pageDown: state.helpScroll += page
        case .pageUp: state.helpScroll = max(0, state.helpScroll - page)
        default:
            state.overlay = nil
            state.helpScroll = 0
        }
        return []
    case .quitPrompt:
        switch key {
        case .character("y"), .character("Y"):
            state.shouldQuit = true
            return [.quit]
        case .character("s"), .character("S"):
            state.overlay = nil
            let effects = saveAll(&state)
            guard !effects.isEmpty || state.profile.drafts.isEmpty else { return [] }
            state.shouldQuit = true
            return effects + [.quit]
        case .character("n"), .character("N"), .escape:
            state.overlay = nil
            return []
        default:
            return []
        }
    case .discardPrompt:
        state.overlay = nil
        if key == .character("y") || key == .character("Y") { return [.discardRejected] }
        return []
    case .importPrompt(var path, _):
        switch key {
        case .escape:
            state.overlay = nil
        case .enter:
            let typed = path.text.trimmingSpaces()
            guard !typed.isEmpty else {
                state.overlay = .importPrompt(
                    path: path, error: "Path: type where export.zip, export.xml or the .csv file is.")
                return []
            }
            state.overlay = .importing(path: path, fraction: 0)
            return [.importHealth(path: typed)]
        default:
            if path.handle(key) { state.overlay = .importPrompt(path: path, error: nil) }
        }
        return []
    case .importing:
        // The screen stays live while the file is read; Esc stops the reading (nothing is imported).
        return key == .escape ? [.cancelImport] : []
    case .importResult:
        state.overlay = nil
        return []
    case .deleteEntryPrompt(let metric, let id, _):
        state.overlay = nil
        return key == .character("y") || key == .character("Y") ? [.deleteEntry(metric, id: id)] : []
    case .correctEntry(let metric, let id, let summary, var value, _):
        switch key {
        case .escape:
            state.overlay = nil
        case .enter:
            // Checked like a typed value of the metric, in the units shown.
            do {
                let parsed = try metric.parse(value.text, unitSystem: ProfileValues(state).unitSystem)
                state.overlay = nil
                return [.correctEntry(metric, id: id, value: parsed)]
            } catch {
                state.overlay = .correctEntry(
                    metric, id: id, summary: summary, value: value, error: error.description)
            }
        default:
            if value.handle(key) {
                state.overlay = .correctEntry(metric, id: id, summary: summary, value: value, error: nil)
            }
        }
        return []
    case .languagePicker(var filter, var selection):
        let choices = LanguageChoices.matching(filter.text)
        switch key {
        case .escape:
            state.overlay = nil
        case .up:
            state.overlay = .languagePicker(filter: filter, selection: max(0, selection - 1))
        case .down:
            state.overlay = .languagePicker(filter: filter, selection: min(max(0, choices.count - 1), selection + 1))
        case .enter:
            let picked = choices.indices.contains(selection) ? choices[selection].code : filter.text
            state.overlay = nil
            setDraft(&state, .language, picked)
        default:
            if filter.handle(key) { selection = 0 }
            state.overlay = .languagePicker(filter: filter, selection: selection)
        }
        return []
    }
}
