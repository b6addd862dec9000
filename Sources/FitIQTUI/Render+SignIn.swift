import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The sign-in (or registration) screen: a centred box with the fields always in typing mode; on a
/// short screen the fields close up and the server line goes.
func renderSignIn(_ state: AppState, into buffer: inout CellBuffer, bottom: Int) -> (x: Int, y: Int)? {
    renderTitle(state, into: &buffer)
    let form = state.signIn
    let width = min(64, buffer.width - (buffer.width >= 68 ? 4 : 2))
    let errorWidth = width - 6
    let errorLines = form.errors.mapValues { wrap("! " + $0, width: errorWidth) }
    let errorRows = form.visibleFields.reduce(0) { $0 + (errorLines[$1]?.count ?? 0) }
    let available = buffer.height - 1 - bottom
    let roomy = 6 + form.visibleFields.count * 2 + errorRows <= available
    let spacing = roomy ? 2 : 1
    let height = min(available, (roomy ? 6 : 3) + form.visibleFields.count * spacing + errorRows)
    let x = (buffer.width - width) / 2
    let y = 1 + max(0, (available - height) / 2)
    let inner = drawBox(
        form.registering ? tr("Create a FitIQ account") : tr("Sign in to FitIQ"), x: x, y: y, width: width,
        height: height,
        focused: true, into: &buffer)
    if roomy {
        buffer.put(
            tr("Server  {server}", ["server": state.server]), x: inner.x + 2, y: inner.y + 1, style: Styles.muted,
            limit: inner.width - 4)
    }
    var row = inner.y + (roomy ? 3 : 0)
    var cursor: (x: Int, y: Int)?
    let wide = inner.width >= 40
    let margin = wide ? 2 : 1
    let labelWidth = wide || inner.width >= 30 ? 15 : 9
    let fieldX = inner.x + margin + labelWidth
    let fieldWidth = inner.width - 2 * margin - labelWidth
    for field in form.visibleFields {
        let focused = field == form.focus
        buffer.put(
            field.label, x: inner.x + margin, y: row, style: focused ? Styles.accent : Styles.label,
            limit: labelWidth - 1)
        let editor = form.fields[field] ?? TextField("")
        let column = editor.render(
            into: &buffer, x: fieldX, y: row, width: fieldWidth, style: focused ? Styles.editing : .plain,
            masked: field == .password)
        if focused { cursor = (column, row) }
        if field == .dateOfBirth && editor.text.isEmpty && !focused {
            buffer.put(tr("YYYY-MM-DD"), x: fieldX, y: row, style: Styles.muted)
        }
        row += 1
        for line in errorLines[field] ?? [] {
            buffer.put(line, x: inner.x + margin, y: row, style: Styles.error, limit: inner.width - 2 * margin)
            row += 1
        }
        row += spacing - 1
    }
    if form.busy { return nil }
    return cursor
}
