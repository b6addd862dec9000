import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sign-in (or registration) screen: a centred box with the fields always in typing mode.
func renderSignIn(_ state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    renderTitle(state, into: &buffer)
    let form = state.signIn
    let width = min(64, buffer.width - 4)
    let errorWidth = width - 6
    let errorLines = form.errors.mapValues { wrap("! " + $0, width: errorWidth) }
    let errorRows = form.visibleFields.reduce(0) { $0 + (errorLines[$1]?.count ?? 0) }
    let height = 6 + form.visibleFields.count * 2 + errorRows
    let x = (buffer.width - width) / 2
    let y = max(2, (buffer.height - height) / 2)
    let inner = drawBox(
        form.registering ? "Create a FitIQ account" : "Sign in to FitIQ", x: x, y: y, width: width, height: height,
        focused: true, into: &buffer)
    buffer.put("Server  \(state.server)", x: inner.x + 2, y: inner.y + 1, style: Styles.muted, limit: inner.width - 4)
    var row = inner.y + 3
    var cursor: (x: Int, y: Int)?
    let fieldX = inner.x + 2 + 15
    let fieldWidth = inner.width - 4 - 15
    for field in form.visibleFields {
        let focused = field == form.focus
        buffer.put(field.label, x: inner.x + 2, y: row, style: focused ? Styles.accent : Styles.label)
        let editor = form.fields[field] ?? TextField("")
        let column = editor.render(
            into: &buffer, x: fieldX, y: row, width: fieldWidth, style: focused ? Styles.editing : .plain,
            masked: field == .password)
        if focused { cursor = (column, row) }
        if field == .dateOfBirth && editor.text.isEmpty && !focused {
            buffer.put("YYYY-MM-DD", x: fieldX, y: row, style: Styles.muted)
        }
        row += 1
        for line in errorLines[field] ?? [] {
            buffer.put(line, x: inner.x + 2, y: row, style: Styles.error, limit: inner.width - 4)
            row += 1
        }
        row += 1
    }
    if form.busy { return nil }
    return cursor
}
