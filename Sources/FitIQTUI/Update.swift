import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Applies `event` to `state` and returns the work to do; never does I/O itself.
/// Speaks the language `state` has when the event comes (``AppState/localizer``).
public func update(_ state: inout AppState, _ event: Event) -> [Effect] {
    speaking(state.localizer) { updateState(&state, event) }
}

private func updateState(_ state: inout AppState, _ event: Event) -> [Effect] {
    switch event {
    case .input(.resize(let width, let height)):
        state.size = (width, height)
        return []
    case .input(.paste(let text)):
        return handlePaste(&state, text)
    case .input(.repaint):
        return [.repaint]
    case .input(.hangUp):
        // The editor ends as after q: what was saved stays on disk, and the sync under way finishes.
        state.shouldQuit = true
        return []
    case .input(.key(let key)):
        return handleKey(&state, key)
    case .input(.mouse(let report)):
        return handleMouse(&state, report)
    case .accountChanged(let view):
        return show(view, &state)
    case .connection(let connection):
        state.connection = connection
        return []
    case .signInFailed(let error):
        state.signIn.busy = false
        state.message = (error.description, true)
        return []
    case .saved(let target, let error, let account):
        if let error {
            state.message = (error.description, true)
            return []
        }
        // A save of the account on show before a switch: its drafts went with it.
        if let account, isStale(account, state) { return [] }
        let effects = account.map { show($0, &state) } ?? []
        state.profile.edits.forget(target.fields.compactMap(\.editable))
        // Said in the language the save leaves in force: "Profil enregistré." once French is saved.
        state.message = (speaking(state.localizer) { target.savedMessage }, false)
        return effects
    case .nothingToSave(let target):
        state.profile.edits.forget(target.fields.compactMap(\.editable))
        state.message = (tr("Nothing to save."), false)
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
    case .goalsLoaded(let goals):
        state.progress.goals = goals
        return []
    case .todayLoaded(let metrics):
        state.today.metrics = metrics
        state.today.selection = min(state.today.selection, max(0, metrics.count - 1))
        return []
    case .entriesLoaded(let latest):
        // Shown only if its metric's list is still open (not one left meanwhile).
        if state.today.history?.metric == latest.metric { state.today.history?.loaded = latest }
        return []
    case .accountSwitched(let view):
        return switchTo(view, &state)
    case .accountsListed(let emails):
        state.knownAccounts = emails
        return []
    }
}

/// Whether `view` is of another account than the one on show: what the last account's work posts
/// after a switch (`:account`) is not shown over the new one.
private func isStale(_ view: AccountView, _ state: AppState) -> Bool {
    guard let shown = state.account, state.screen != .signIn else { return false }
    // The editor's accounts are all on its one server: the email tells them apart.
    return shown.email.lowercased() != view.email.lowercased()
}

/// The editor now works on `view`'s account: nothing of the last one is kept, least of all an edit in
/// progress or a draft (it was typed for the other account), and the profile screen shows.
private func switchTo(_ view: AccountView, _ state: inout AppState) -> [Effect] {
    let dropped = state.hasUnsavedEdits
    state.profile = ProfileForm()
    state.overlay = nil
    state.commandLine = nil
    state.lower = .history
    state.historySelection = nil
    state.historyMetric = .height
    state.progress = ProgressScreen()
    state.today = TodayScreen()
    state.detailsScroll = 0
    state.connection = .unknown
    state.account = view
    state.screen = .profile
    let email = TextSanitizer.sanitize(view.email)
    state.message = (
        dropped
            ? tr("Now on {email}'s profile; the edits not saved were dropped.", ["email": email])
            : tr("Now on {email}'s profile.", ["email": email]), false
    )
    return []
}

/// Shows the account as it now stands: after a save, a sync, another process's change, a sign-in.
private func show(_ view: AccountView, _ state: inout AppState) -> [Effect] {
    if isStale(view, state) { return [] }
    let wasSignIn = state.screen == .signIn
    state.account = view
    if state.screen == .progress {
        // A sync or a save: the chart stays, and is read again (the old one shows until then).
        state.progress.histories = [:]
        return [.loadProgress(state.progress.series)]
    }
    // A log from Today, a sync, a removal from the list: the rows or the entries stay, and are read again.
    if state.screen == .today { return [.loadToday] + (state.today.history.map { [.loadEntries($0.metric)] } ?? []) }
    state.screen = .profile
    if wasSignIn {
        state.signIn = SignInForm()
        state.message = (ProfileSentences.signedIn(as: view.email), false)
    }
    return []
}

/// A paste is text, never keys: it goes into the field being typed in, on one line; elsewhere it is
/// ignored with a hint.
private func handlePaste(_ state: inout AppState, _ text: String) -> [Effect] {
    let (line, changes) = PastedText.oneLine(text)
    func paste(into field: inout TextField, label: String) {
        let fitted = field.insert(text: line)
        var sentences = PastedText.summary(changes).map { [$0] } ?? []
        if !fitted, let limit = field.limit {
            sentences.append(
                tr(
                    "{field} can be at most {limit} characters; the rest of the paste was left out.",
                    ["field": label, "limit": String(limit)]))
        }
        state.message = sentences.isEmpty ? nil : (sentences.joined(separator: " "), !fitted)
    }
    if var line = state.commandLine {
        paste(into: &line, label: tr("Command line (:)"))
        state.commandLine = line
        return []
    }
    switch state.overlay {
    case .importPrompt(var path, _)?:
        paste(into: &path, label: tr("Path"))
        state.overlay = .importPrompt(path: path, error: nil)
        return []
    case .languagePicker(var filter, _)?:
        paste(into: &filter, label: FieldLabel.language.text)
        state.overlay = .languagePicker(filter: filter, selection: 0)
        return []
    case nil:
        break
    default:
        return []
    }
    switch state.screen {
    case .progress, .today:
        return []
    case .signIn:
        var field = state.signIn.fields[state.signIn.focus] ?? TextField("")
        paste(into: &field, label: state.signIn.focus.label)
        state.signIn.fields[state.signIn.focus] = field
    case .profile:
        guard case (let field, var editor)? = state.profile.editing else {
            state.message = (tr("Press Enter on a field first to paste into it."), false)
            return []
        }
        paste(into: &editor, label: field.label)
        state.profile.editing = (field, editor)
        if editor.limit != nil, state.message?.isError == true {
            state.profile.errors[field] = typingLimitMessage(field.label, limit: editor.limit ?? 0)
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
        state.message = PastedText.summary(changes, what: tr("From your editor")).map { ($0, false) }
        _ = confirmEdit(&state, field, line)
    }
}

private func handleImportProgress(_ state: inout AppState, _ progress: HealthImportProgress) {
    guard case .importing(let path, _) = state.overlay else { return }
    switch progress {
    case .reading(let fraction):
        state.overlay = .importing(path: path, fraction: fraction)
    case .failed(let error):
        state.overlay = .importPrompt(path: path, error: error.description)
    case .preview(let lines):
        state.overlay = .importPreview(path: path, lines: lines.map(TextSanitizer.sanitize))
    case .finished(let lines):
        state.overlay = .importResult(lines.map(TextSanitizer.sanitize))
        state.message = (tr("Health data imported."), false)
    }
}
