import FitIQCore
import Foundation

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
