/// What a click can name on the screen, recorded where it is drawn (``CellBuffer/mark(_:x:y:width:height:)``).
enum ScreenTarget: Sendable, Equatable {
    /// A field of the profile: its label or its value.
    case field(ProfileField)
    /// The history list's entry at this place (newest first).
    case entry(Int)
    /// A key hint of the footer, as it is written there.
    case hint(String)
    /// A box over the screen: a click inside it is not a click outside.
    case box
}

/// The mouse: the wheel is a key of the place under the box or screen shown; a click is a key for what
/// it lands on (``Clickable``), found by drawing the screen as it stands, with what it landed on kept in
/// ``AppState/clicked`` while the key table's binding acts. Where no binding takes it, nothing happens:
/// the mouse never types, and never answers a question but by a click outside its box.
func handleMouse(_ state: inout AppState, _ report: MouseReport) -> [Effect] {
    switch report.gesture {
    case .wheelUp: return handleKey(&state, .wheelUp)
    case .wheelDown: return handleKey(&state, .wheelDown)
    case .click: break
    }
    guard state.screen != .signIn else { return [] }
    var screen = CellBuffer(width: state.size.width, height: state.size.height)
    _ = render(state, into: &screen)
    let target = screen.target(x: report.x, y: report.y)
    if state.overlay != nil {
        return target == .box ? [] : handleKey(&state, .click(.outside))
    }
    let key: Key
    switch target {
    case .field?: key = .click(.field)
    case .entry?: key = .click(.entry)
    case .hint?: key = .click(.hint)
    case .box?, nil: return []
    }
    state.clicked = target
    defer { state.clicked = nil }
    return handleKey(&state, key)
}

/// A click on a footer hint: what the hint's binding does, as its first key would (the list's footer
/// names the form's undo and help, which the list passes on).
func pressHint(_ state: inout AppState) -> [Effect] {
    guard case .hint(let text)? = state.clicked,
        let binding = KeyTable.binding(forHint: text, in: state), let key = binding.keys.first
    else { return [] }
    state.clicked = nil
    return perform(binding, key: key, &state)
}
