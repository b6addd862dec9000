import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The profile screen: title, the Profile and Physical boxes, then history or sync details.
func renderProfile(_ state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    renderTitle(state, into: &buffer)
    let values = ProfileValues(state)
    let outbox = state.account?.state
    let leftWidth = buffer.width / 2
    let rightWidth = buffer.width - leftWidth
    let metadataRows =
        rows(for: [.name, .bio, .unitSystem, .language], state: state, values: values, width: leftWidth - 2)
        + resultRows(outbox?.outbox.metadata?.delivery, pending: outbox?.outbox.metadata != nil, state: state)
    let physicalRows =
        rows(for: [.height, .dateOfBirth, .biologicalSex], state: state, values: values, width: rightWidth - 2)
        + resultRows(physicalDelivery(outbox), pending: outbox?.outbox.physical != nil, state: state)
    let boxHeight = max(metadataRows.count, physicalRows.count) + 2
    var cursor: (x: Int, y: Int)?
    let focusForm = state.profile.focus.form
    let left = drawBox(
        "Profile", x: 0, y: 1, width: leftWidth, height: boxHeight, focused: focusForm == .metadata, into: &buffer)
    let right = drawBox(
        "Physical", x: leftWidth, y: 1, width: rightWidth, height: boxHeight,
        focused: focusForm != .metadata, into: &buffer)
    for (inner, lines) in [(left, metadataRows), (right, physicalRows)] {
        for (offset, line) in lines.enumerated() {
            if let column = line.draw(&buffer, inner.x, inner.y + offset, inner.width) {
                cursor = (column, inner.y + offset)
            }
        }
    }
    let lowerTop = 1 + boxHeight
    let lowerHeight = buffer.height - 2 - lowerTop
    if lowerHeight >= 3 {
        switch state.lower {
        case .history: renderHistory(state, x: 0, y: lowerTop, width: buffer.width, height: lowerHeight, into: &buffer)
        case .syncDetails:
            renderSyncDetails(state, x: 0, y: lowerTop, width: buffer.width, height: lowerHeight, into: &buffer)
        }
    }
    return cursor
}

/// One row inside a box; `draw` returns the cursor column when the row holds the field being edited.
private struct Row {
    let draw: (inout CellBuffer, Int, Int, Int) -> Int?
}

private let labelWidth = 16

private func rows(for fields: [ProfileField], state: AppState, values: ProfileValues, width: Int) -> [Row] {
    var rows: [Row] = []
    for field in fields {
        let focused = state.profile.focus == field && state.overlay == nil
        let editing = state.profile.editing.flatMap { $0.field == field ? $0.editor : nil }
        let draft = state.profile.drafts[field] != nil
        let valueWidth = max(1, width - labelWidth - 1)
        rows.append(
            Row { buffer, x, y, _ in
                buffer.put(
                    (focused ? "›" : " ") + field.label, x: x, y: y, style: focused ? Styles.accent : Styles.label)
                if let editing {
                    return editing.render(
                        into: &buffer, x: x + labelWidth, y: y, width: valueWidth, style: Styles.editing)
                }
                let (text, style) = display(field, state: state, values: values, focused: focused, draft: draft)
                buffer.put(text, x: x + labelWidth, y: y, style: style, limit: valueWidth)
                return nil
            })
        for extra in extraLines(field, state: state) {
            for line in wrap(extra.text, width: valueWidth) {
                rows.append(
                    Row { buffer, x, y, _ in
                        buffer.put(line, x: x + labelWidth, y: y, style: extra.style, limit: valueWidth)
                        return nil
                    })
            }
        }
        if let error = state.profile.errors[field] {
            for line in wrap("! " + error, width: max(10, width - 2)) {
                rows.append(
                    Row { buffer, x, y, width in
                        buffer.put(line, x: x + 1, y: y, style: Styles.error, limit: width - 1)
                        return nil
                    })
            }
        }
    }
    return rows
}

private func display(
    _ field: ProfileField, state: AppState, values: ProfileValues, focused: Bool, draft: Bool
) -> (String, CellStyle) {
    var text = values.text(field)
    var style = focused ? Styles.focused : CellStyle.plain
    switch field {
    case .biologicalSex:
        if text.isEmpty { text = "not set" }
    case .dateOfBirth:
        if text.isEmpty { text = "not set" }
    case .height:
        if text.isEmpty { text = "not set" }
    case .language:
        if text.isEmpty { text = "—" }
    default:
        if text.isEmpty && !focused { style = Styles.muted }
    }
    if draft {
        text += " *"
        style = focused ? CellStyle([.reverse, .bold], color: .warning) : Styles.draft
    }
    return (text, style)
}

/// The provenance line of biological sex and the health source's date of birth.
private func extraLines(_ field: ProfileField, state: AppState) -> [(text: String, style: CellStyle)] {
    guard let profile = state.account?.state.profile else { return [] }
    switch field {
    case .biologicalSex:
        guard let sex = profile.biologicalSex else {
            return [(state.canImportHealth ? "press i to import health data" : "comes from health data", Styles.muted)]
        }
        return [
            (
                sex.source == .health ? "from health source" : "from account — import health data to confirm",
                Styles.muted
            )
        ]
    case .dateOfBirth:
        guard let health = profile.healthSync.healthDateOfBirth, health != profile.dateOfBirth else { return [] }
        return [("health data says \(health)", Styles.muted)]
    default:
        return []
    }
}

/// The form's own result: rejected with the server's message, or waiting to be sent.
private func resultRows(_ delivery: Delivery?, pending: Bool, state: AppState) -> [Row] {
    guard pending else { return [] }
    let text: String
    let style: CellStyle
    if let rejection = delivery?.rejection {
        text = "! Rejected by the server: \(TextSanitizer.sanitize(rejection))"
        style = Styles.error
    } else {
        text = "○ Saved here, not on the server yet"
        style = Styles.muted
    }
    return wrap(text, width: 36).map { line in
        Row { buffer, x, y, width in
            buffer.put(line, x: x + 1, y: y, style: style, limit: width - 1)
            return nil
        }
    }
}

private func physicalDelivery(_ state: AccountState?) -> Delivery? {
    guard let state else { return nil }
    if let rejected = state.outbox.progress.first(where: { $0.delivery.isRejected }) { return rejected.delivery }
    return state.outbox.physical?.delivery
}

/// Splits `text` into lines of at most `width` columns at spaces.
func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
        let candidate = line.isEmpty ? word : line + " " + word
        if DisplayWidth.of(candidate) > width && !line.isEmpty {
            lines.append(line)
            line = word
        } else {
            line = candidate
        }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.prefix(3).map { $0 }
}

private func renderHistory(_ state: AppState, x: Int, y: Int, width: Int, height: Int, into buffer: inout CellBuffer) {
    let inner = drawBox("Height history", x: x, y: y, width: width, height: height, into: &buffer)
    let entries = state.account?.state.heightHistory ?? []
    let units = ProfileValues(state).unitSystem
    let listWidth = min(40, inner.width / 2)
    HeightChart.render(
        entries, unitSystem: units, timeZone: state.timeZone, into: &buffer, x: inner.x, y: inner.y,
        width: inner.width - listWidth - 1, height: inner.height, style: .plain)
    HeightChart.list(
        entries, unitSystem: units, timeZone: state.timeZone, into: &buffer, x: inner.x + inner.width - listWidth,
        y: inner.y, width: listWidth, height: inner.height, style: .plain)
}

private func renderSyncDetails(
    _ state: AppState, x: Int, y: Int, width: Int, height: Int, into buffer: inout CellBuffer
) {
    let inner = drawBox("Sync details", x: x, y: y, width: width, height: height, into: &buffer)
    guard let account = state.account else { return }
    let changes = account.state.pendingChanges(timeZone: state.timeZone)
    var row = inner.y
    let last = account.state.lastSyncAt.map { "Last sync \(clockTime($0, in: state.timeZone))" } ?? "Never synced"
    buffer.put(
        "\(last) · server \(account.server)", x: inner.x + 1, y: row, style: Styles.muted, limit: inner.width - 2)
    row += 1
    if changes.isEmpty {
        buffer.put("Every change is on the server.", x: inner.x + 1, y: row, style: Styles.good, limit: inner.width - 2)
        return
    }
    for change in changes where row < inner.y + inner.height {
        let mark = change.rejection == nil ? "○ pending " : "! rejected"
        var line = "\(mark)  \(change.summary)"
        if let rejection = change.rejection {
            line += ": \(TextSanitizer.sanitize(rejection))"
        } else if let error = change.lastError {
            line += " (last try: \(TextSanitizer.sanitize(error)))"
        }
        buffer.put(
            line, x: inner.x + 1, y: row, style: change.rejection == nil ? .plain : Styles.error, limit: inner.width - 2
        )
        row += 1
    }
}
