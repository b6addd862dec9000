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
    case .input(.key(let key)):
        if key == .control("c") {
            state.shouldQuit = true
            return [.quit]
        }
        if let overlay = state.overlay { return handleOverlay(&state, overlay, key) }
        switch state.screen {
        case .signIn: return handleSignIn(&state, key)
        case .profile: return handleProfile(&state, key)
        }
    case .accountChanged(let snapshot):
        let wasSignIn = state.screen == .signIn
        state.account = snapshot
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
    case .saved(let form, let error):
        if let error {
            state.message = (TextSanitizer.sanitize(error), true)
            return []
        }
        for field in ProfileField.allCases where field.form == form { state.profile.drafts[field] = nil }
        state.message = (form == .metadata ? "Profile saved." : "Height saved.", false)
        return []
    case .tick(let date):
        state.now = date
        return []
    case .healthImport(let progress):
        handleImportProgress(&state, progress)
        return []
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
        state.overlay = nil
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
                state.overlay = .importPrompt(path: path, error: "Path: type where export.zip or export.xml is.")
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
