import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keys on the sign-in screen: fields are always in typing mode; Tab, Enter, Esc and Ctrl keys act.
func handleSignIn(_ state: inout AppState, _ key: Key) -> [Effect] {
    var form = state.signIn
    defer { state.signIn = form }
    guard !form.busy else { return [] }
    let fields = form.visibleFields
    let index = fields.firstIndex(of: form.focus) ?? 0
    switch key {
    case .tab, .down:
        form.focus = fields[(index + 1) % fields.count]
    case .backTab, .up:
        form.focus = fields[(index + fields.count - 1) % fields.count]
    case .control("r"):
        form.registering.toggle()
        form.errors = [:]
        if !form.visibleFields.contains(form.focus) { form.focus = .email }
    case .escape:
        state.shouldQuit = true
        return [.quit]
    case .enter:
        if index < fields.count - 1 {
            form.focus = fields[index + 1]
            return []
        }
        return submit(&form, state: &state)
    default:
        var editor = form.fields[form.focus] ?? TextField("")
        if editor.handle(key) {
            form.fields[form.focus] = editor
            form.errors[form.focus] = nil
        }
    }
    return []
}

private func submit(_ form: inout SignInForm, state: inout AppState) -> [Effect] {
    form.errors = [:]
    func check<T>(_ field: SignInForm.Field, _ rule: () throws(ValidationError) -> T) -> T? {
        do {
            return try rule()
        } catch {
            form.errors[field] = error.description
            return nil
        }
    }
    let today = CalendarDate(containing: state.now, in: state.timeZone)
    let email = check(.email) { () throws(ValidationError) in try ProfileRules.email(form.text(.email)) }
    let password = check(.password) { () throws(ValidationError) in try ProfileRules.password(form.text(.password)) }
    guard form.registering else {
        guard let email, let password else { return [] }
        form.busy = true
        state.message = (tr("Signing in…"), false)
        return [.signIn(email: email, password: password)]
    }
    let name = check(.name) { () throws(ValidationError) in try ProfileRules.name(form.text(.name)) }
    let birth = check(.dateOfBirth) { () throws(ValidationError) in
        try ProfileRules.dateOfBirth(form.text(.dateOfBirth), today: today)
    }
    guard let email, let password, let name, let birth else {
        form.focus = form.visibleFields.first { form.errors[$0] != nil } ?? form.focus
        return []
    }
    form.busy = true
    state.message = (tr("Creating your account…"), false)
    return [.register(email: email, password: password, name: name, dateOfBirth: birth.description)]
}
