import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Styles the screens use.
enum Styles {
    static let titleBar = CellStyle(.reverse)
    static let label = CellStyle(.dim)
    static let focused = CellStyle(.reverse)
    static let editing = CellStyle(.underline)
    static let draft = CellStyle(.bold, color: .warning)
    static let error = CellStyle(.bold, color: .error)
    static let muted = CellStyle(.dim, color: .muted)
    static let good = CellStyle([], color: .good)
    static let accent = CellStyle(.bold, color: .accent)
    static let border = CellStyle([], color: .muted)
}

/// Draws the whole screen for `state`; returns where the cursor belongs (while typing), if anywhere.
/// Speaks the state's language (``AppState/localizer``).
public func render(_ state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    speaking(state.localizer) { renderScreen(state, into: &buffer) }
}

private func renderScreen(_ state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    buffer.fill(x: 0, y: 0, width: buffer.width, height: buffer.height)
    // The loop draws every frame into the same buffer: what a click names is this frame's alone.
    buffer.clearTargets()
    let (width, height) = (buffer.width, buffer.height)
    guard width >= AppState.minimumSize.width, height >= AppState.minimumSize.height else {
        renderTooSmall(width: width, height: height, into: &buffer)
        return nil
    }
    var cursor: (x: Int, y: Int)?
    let messageLines = state.message.map { wrap(" " + $0.text, width: width - 1, maximumLines: 3) } ?? []
    // The screens use the rows between the title bar and the message lines above the key hints (and
    // the `:` line, when it is open, between them).
    let promptRows = state.commandLine == nil ? 0 : 1
    let bottom = 1 + messageLines.count + promptRows
    switch state.screen {
    case .signIn: cursor = renderSignIn(state, into: &buffer, bottom: bottom)
    case .profile: cursor = renderProfile(state, into: &buffer, bottom: bottom)
    case .progress: renderProgress(state, into: &buffer, bottom: bottom)
    case .today: renderToday(state, into: &buffer, bottom: bottom)
    }
    renderBottom(state, messageLines: messageLines, into: &buffer)
    if let line = state.commandLine {
        buffer.fill(x: 0, y: height - 2, width: width, height: 1)
        buffer.put(":", x: 0, y: height - 2, style: Styles.accent)
        cursor = (line.render(into: &buffer, x: 1, y: height - 2, width: width - 1, style: .plain), height - 2)
    }
    if let overlay = state.overlay { cursor = renderOverlay(overlay, state: state, into: &buffer) }
    return cursor
}

private func renderTooSmall(width: Int, height: Int, into buffer: inout CellBuffer) {
    let lines = [
        tr("Terminal too small: {size}.", ["size": "\(width)×\(height)"]),
        tr(
            "fitiq-tui needs at least {size}.",
            ["size": "\(AppState.minimumSize.width)×\(AppState.minimumSize.height)"]),
        tr("Enlarge the window, or press q to quit."),
    ]
    let top = max(0, height / 2 - 1)
    for (index, line) in lines.enumerated() {
        let x = max(0, (width - DisplayWidth.of(line)) / 2)
        buffer.put(line, x: x, y: top + index, style: index == 0 ? Styles.error : .plain)
    }
}

/// The title bar: the program, the account, and the sync state at the right.
func renderTitle(_ state: AppState, into buffer: inout CellBuffer) {
    buffer.fill(x: 0, y: 0, width: buffer.width, height: 1, style: Styles.titleBar)
    var left = " fitiq-tui"
    if let account = state.account { left += " · \(TextSanitizer.sanitize(account.email))" }
    // The program's name always shows; the sync state gets what is left after it, then the account.
    let right = syncSummary(state) + " "
    let rightWidth = min(DisplayWidth.of(right), max(0, buffer.width - DisplayWidth.of(" fitiq-tui") - 1))
    let leftWidth = max(0, buffer.width - rightWidth - 1)
    // A cut account ends in "…", so that it never reads as a whole address.
    buffer.put(fitted(left, width: leftWidth), x: 0, y: 0, style: Styles.titleBar, limit: leftWidth)
    buffer.put(right, x: max(0, buffer.width - rightWidth), y: 0, style: Styles.titleBar, limit: rightWidth)
}

/// `● synced 12:04`, `○ offline · 2 changes pending`, `! 1 change rejected`.
func syncSummary(_ state: AppState) -> String {
    guard let account = state.account else { return tr("server {server}", ["server": state.server]) }
    let pending = account.pendingCount
    let rejected = account.rejectedCount
    if case .signedOut = state.connection { return "! " + tr("signed out · sign in again to send changes") }
    if rejected > 0 { return "! " + trn("{count} change rejected", "{count} changes rejected", count: rejected) }
    let conflicts = account.conflicts.count
    if conflicts > 0 {
        return "! " + trn("{count} conflict · h for details", "{count} conflicts · h for details", count: conflicts)
    }
    let changes = trn("{count} change pending", "{count} changes pending", count: pending)
    switch state.connection {
    case .syncing: return "↻ " + (pending > 0 ? tr("syncing · {changes}", ["changes": changes]) : tr("syncing"))
    case .offline: return "○ " + (pending > 0 ? tr("offline · {changes}", ["changes": changes]) : tr("offline"))
    case .unknown, .online, .signedOut:
        if pending > 0 { return "○ \(changes)" }
        guard let last = account.lastSyncAt else { return "○ " + tr("not synced yet") }
        return "● " + tr("synced {time}", ["time": clockTime(last, in: state.timeZone)])
    }
}

/// `HH:mm` in `timeZone`; plain arithmetic on the zone's offset (building a `Calendar` costs the
/// first frame about a millisecond).
func clockTime(_ date: Date, in timeZone: LocalZone) -> String {
    let local = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsEastOfUTC(at: date)
    let minutes = ((local / 60) % 1440 + 1440) % 1440
    let (hour, minute) = (minutes / 60, minutes % 60)
    return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
}

/// The message lines (wrapped, not cut) and the key hints.
private func renderBottom(_ state: AppState, messageLines: [String], into buffer: inout CellBuffer) {
    let (width, height) = (buffer.width, buffer.height)
    let promptRows = state.commandLine == nil ? 0 : 1
    for (index, line) in messageLines.enumerated() {
        buffer.put(
            line, x: 0, y: height - 1 - promptRows - messageLines.count + index,
            style: state.message?.isError == true ? Styles.error : .plain, limit: width)
    }
    buffer.fill(x: 0, y: height - 1, width: width, height: 1, style: Styles.titleBar)
    var x = 1
    for (index, hint) in fittedHints(keyHints(state), width: width - 1).enumerated() {
        if index > 0 { x += 2 }
        let columns = buffer.put(hint, x: x, y: height - 1, style: Styles.titleBar)
        buffer.mark(.hint(hint), x: x, y: height - 1, width: columns)
        x += columns
    }
}

/// As many hints as fit in `width`, in order of importance, and always `? help` at the end (except on
/// the sign-in screen, which has no help).
func fittedHints(_ hints: [String], width: Int) -> [String] {
    let help = tr("? help")
    let always = hints.last == help ? help : nil
    var shown: [String] = []
    var used = always.map { DisplayWidth.of($0) } ?? 0
    for hint in hints.dropLast(always == nil ? 0 : 1) {
        let needed = DisplayWidth.of(hint) + 2
        if used + needed > width { continue }
        shown.append(hint)
        used += needed
    }
    return shown + (always.map { [$0] } ?? [])
}

/// The key hints of the screen in order of importance; the footer shows those that fit.
func keyHints(_ state: AppState) -> [String] {
    switch state.screen {
    case .signIn:
        return state.signIn.registering
            ? [tr("Enter register"), tr("Tab next field"), tr("Ctrl-R back to sign-in"), tr("Esc quit")]
            : [tr("Enter sign in"), tr("Tab next field"), tr("Ctrl-R register a new account"), tr("Esc quit")]
    case .progress, .profile, .today:
        return KeyTable.hints(state)
    }
}

/// `title` with its first letter a capital: a title built around a name as it is written in a sentence
/// ("Historial de estatura", and in English "Height history").
func titleCased(_ title: String) -> String {
    guard let first = title.first else { return title }
    return first.uppercased() + title.dropFirst()
}

/// Draws a box with a title; returns the inner rectangle.
@discardableResult
func drawBox(
    _ title: String, x: Int, y: Int, width: Int, height: Int, focused: Bool = false, into buffer: inout CellBuffer
) -> (x: Int, y: Int, width: Int, height: Int) {
    guard width >= 2, height >= 2 else { return (x, y, 0, 0) }
    let style = focused ? Styles.accent : Styles.border
    buffer.put("┌" + String(repeating: "─", count: width - 2) + "┐", x: x, y: y, style: style)
    for row in (y + 1)..<(y + height - 1) {
        buffer.put("│", x: x, y: row, style: style)
        buffer.put("│", x: x + width - 1, y: row, style: style)
    }
    buffer.put("└" + String(repeating: "─", count: width - 2) + "┘", x: x, y: y + height - 1, style: style)
    buffer.put(" \(title) ", x: x + 2, y: y, style: focused ? Styles.accent : CellStyle(.bold), limit: width - 4)
    return (x + 1, y + 1, width - 2, height - 2)
}
