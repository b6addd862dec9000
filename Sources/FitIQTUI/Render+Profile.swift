import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The profile screen: title, the Profile and Physical boxes (side by side from 80 columns, stacked
/// below), then the focused measurement's history or the sync details in what is left above the `bottom` rows.
///
/// When the boxes do not fit, the lower panel goes first; when even they do not fit, they scroll so
/// the focused field stays in view.
func renderProfile(_ state: AppState, into buffer: inout CellBuffer, bottom: Int) -> (x: Int, y: Int)? {
    renderTitle(state, into: &buffer)
    let top = 1
    let available = buffer.height - bottom - top
    let sideBySide = buffer.width >= AppState.sideBySideWidth
    let leftWidth = sideBySide ? buffer.width / 2 : buffer.width
    let rightWidth = sideBySide ? buffer.width - leftWidth : buffer.width
    let values = ProfileValues(state)
    let account = state.account
    let metadataRows =
        rows(for: ProfileField.metadataFields, state: state, values: values, width: leftWidth - 2)
        + resultRows(
            account?.metadataStatus ?? .settled, state: state,
            width: leftWidth - 3)
    let physicalRows =
        rows(for: ProfileField.physicalFields, state: state, values: values, width: rightWidth - 2)
        + resultRows(
            account?.physicalStatus ?? .settled, state: state, width: rightWidth - 3)
    let focusForm = state.profile.focus.form
    let boxes: [(title: String, rows: [Row], x: Int, width: Int, focused: Bool, focusRow: Int?)] = [
        (
            trc("box title", "Profile"), metadataRows, 0, leftWidth, focusForm == .metadata,
            focusRow(state, in: ProfileField.metadataFields)
        ),
        (
            trc("box title", "Physical"), physicalRows, sideBySide ? leftWidth : 0, rightWidth, focusForm != .metadata,
            focusRow(state, in: ProfileField.physicalFields)
        ),
    ]
    let heights = boxes.map { $0.rows.count + 2 }
    let formHeight = sideBySide ? (heights.max() ?? 0) : heights.reduce(0, +)

    // The boxes, into a buffer of their own height: copied whole when they fit, else the rows around
    // the focused field.
    var form = CellBuffer(width: buffer.width, height: formHeight)
    var cursor: (x: Int, y: Int)?
    var focusY = 0
    var y = 0
    for (index, box) in boxes.enumerated() {
        let boxY = sideBySide ? 0 : y
        let height = sideBySide ? formHeight : heights[index]
        let inner = drawBox(
            box.title, x: box.x, y: boxY, width: box.width, height: height, focused: box.focused, into: &form)
        for (offset, line) in box.rows.enumerated() {
            if let column = line.draw(&form, inner.x, inner.y + offset, inner.width) {
                cursor = (column, inner.y + offset)
            }
        }
        if let row = box.focusRow { focusY = inner.y + row }
        y += heights[index]
    }
    let shown = min(formHeight, available)
    let offset = formHeight <= available ? 0 : max(0, min(formHeight - available, focusY - available / 2))
    buffer.blit(form, sourceY: offset, rows: shown, toY: top)
    if let found = cursor {
        let row = found.y - offset
        cursor = (0..<shown).contains(row) ? (found.x, top + row) : nil
    }

    let lowerTop = top + shown
    let lowerHeight = buffer.height - bottom - lowerTop
    if lowerHeight >= 3 {
        switch state.lower {
        case .history: renderHistory(state, x: 0, y: lowerTop, width: buffer.width, height: lowerHeight, into: &buffer)
        case .syncDetails:
            renderSyncDetails(state, x: 0, y: lowerTop, width: buffer.width, height: lowerHeight, into: &buffer)
        }
    }
    return cursor
}

/// The row of the focused field among `fields` inside its box (its first row), if it is one of them.
private func focusRow(_ state: AppState, in fields: [ProfileField]) -> Int? {
    guard let index = fields.firstIndex(of: state.profile.focus) else { return nil }
    // Fields before it may carry extra lines (messages, provenance); the box's rows were built in order.
    var row = 0
    for field in fields[..<index] {
        row += 1 + extraLines(field, state: state).count + (state.profile.errors[field] == nil ? 0 : 1)
    }
    return row
}

/// One row inside a box; `draw` returns the cursor column when the row holds the field being edited.
private struct Row {
    let draw: (inout CellBuffer, Int, Int, Int) -> Int?
}

private let labelWidth = 16

private func rows(for fields: [ProfileField], state: AppState, values: ProfileValues, width: Int) -> [Row] {
    var rows: [Row] = []
    for field in fields {
        let focused = state.profile.focus == field && state.overlay == nil && state.historySelection == nil
        let editing = state.profile.editing.flatMap { $0.field == field ? $0.editor : nil }
        let draft = state.profile.drafts[field] != nil
        let valueWidth = max(1, width - labelWidth - 1)
        rows.append(
            Row { buffer, x, y, width in
                buffer.mark(.field(field), x: x, y: y, width: width)
                buffer.put(
                    (focused ? "›" : " ") + field.label, x: x, y: y, style: focused ? Styles.accent : Styles.label,
                    limit: labelWidth - 1)
                if let editing {
                    return editing.render(
                        into: &buffer, x: x + labelWidth, y: y, width: valueWidth, style: Styles.editing)
                }
                let (text, style) = display(field, state: state, values: values, focused: focused, draft: draft)
                buffer.put(
                    fitted(text, width: valueWidth, keepingSuffix: draft ? " *" : ""), x: x + labelWidth, y: y,
                    style: style, limit: valueWidth)
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
        if text.isEmpty { text = ProfileSentences.notSet }
    case .dateOfBirth:
        if let birth = state.account?.profile?.dateOfBirth {
            let age = birth.years(until: CalendarDate(containing: state.now, in: state.timeZone))
            text += " · " + tr("age {age}", ["age": String(age)])
        } else {
            text = ProfileSentences.notSet
        }
    case .height:
        if text.isEmpty { text = ProfileSentences.notSet }
    case .weight, .bodyFat:
        // The latest reading and how long ago: "72.4 kg · 3 days ago".
        if let metric = field.metric, let entry = state.account?.latestEntry(of: metric), !draft {
            text += " · " + relativeDay(entry.loggedAt, now: state.now, timeZone: state.timeZone)
        } else if text.isEmpty {
            text = tr("not logged")
            if !focused { style = Styles.muted }
        }
    case .bmi:
        if let bmi = values.bodyMassIndex, let category = bmi.category, !text.isEmpty {
            text += " · " + category.shown
        } else if text.isEmpty {
            text = tr("needs a weight and a height")
            if !focused { style = Styles.muted }
        }
    case .language:
        if text.isEmpty { text = "—" }
    case .unitSystem:
        // The value is the word `set units` takes; the screen says it in the language.
        if let units = UnitSystem(rawValue: text) { text = units == .metric ? tr("metric") : tr("imperial") }
    default:
        if text.isEmpty && !focused { style = Styles.muted }
    }
    if draft {
        text += " *"
        style = focused ? CellStyle([.reverse, .bold], color: .warning) : Styles.draft
    }
    return (text, style)
}

/// How long ago `date` was, in days: `today`, `yesterday`, `3 days ago`, or the date past a month.
func relativeDay(_ date: Date, now: Date, timeZone: LocalZone) -> String {
    let day = CalendarDate(containing: date, in: timeZone)
    let days = CalendarDate(containing: now, in: timeZone).daysSince1970 - day.daysSince1970
    switch days {
    case 0...31: return Localizer.current.daysAgo(days)
    default: return day.description
    }
}

/// `text` cut to `width` columns with `…`, keeping `suffix` (a draft's ` *` must always show).
func fitted(_ text: String, width: Int, keepingSuffix suffix: String = "") -> String {
    guard DisplayWidth.of(text) > width, width > DisplayWidth.of(suffix) + 1 else { return text }
    var body = String(text.dropLast(suffix.count))
    while !body.isEmpty && DisplayWidth.of(body) + 1 + DisplayWidth.of(suffix) > width { body.removeLast() }
    return body + "…" + suffix
}

/// The provenance line of biological sex and the health source's date of birth.
private func extraLines(_ field: ProfileField, state: AppState) -> [(text: String, style: CellStyle)] {
    guard let profile = state.account?.profile else { return [] }
    switch field {
    case .biologicalSex:
        guard let sex = profile.biologicalSex else {
            let text = state.canImportHealth ? tr("press i to import health data") : tr("comes from health data")
            return [(text, Styles.muted)]
        }
        var lines = [(sex.source.shown, Styles.muted)]
        if let imported = profile.healthSync.lastImport(in: state.timeZone) { lines.append((imported, Styles.muted)) }
        return lines
    case .bmi:
        // The category shows in the row itself; under 20 the adult ranges do not apply, and it says so.
        guard let bmi = ProfileValues(state).bodyMassIndex, bmi.isUnderTwenty else { return [] }
        return [(tr("adult ranges do not apply"), Styles.muted)]
    case .dateOfBirth:
        guard let health = profile.healthSync.healthDateOfBirth, health != profile.dateOfBirth else { return [] }
        return [(tr("health data says {date}", ["date": health.description]), Styles.muted)]
    default:
        return []
    }
}

/// The form's own result: rejected with the server's message, or waiting to be sent.
private func resultRows(_ status: FormChangeStatus, state: AppState, width: Int) -> [Row] {
    guard status.isPending else { return [] }
    let text: String
    let style: CellStyle
    if let rejection = status.rejection {
        text = "! " + ProfileSentences.rejected(TextSanitizer.sanitize(rejection))
        style = Styles.error
    } else {
        text = "○ " + tr("Saved here, not on the server yet")
        style = Styles.muted
    }
    return wrap(text, width: max(10, width)).map { line in
        Row { buffer, x, y, width in
            buffer.put(line, x: x + 1, y: y, style: style, limit: width - 1)
            return nil
        }
    }
}

/// Splits `text` into lines of at most `width` columns at spaces (a word longer than a line is cut
/// into pieces), keeping at most `maximumLines`.
func wrap(_ text: String, width: Int, maximumLines: Int = 3) -> [String] {
    let width = max(1, width)
    var lines: [String] = []
    var line = ""
    func push(_ word: String) {
        var word = word
        while DisplayWidth.of(word) > width {
            var piece = ""
            for character in word {
                if DisplayWidth.of(piece + String(character)) > width { break }
                piece.append(character)
            }
            if piece.isEmpty { break }
            lines.append(piece)
            word.removeFirst(piece.count)
        }
        line = word
    }
    for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
        let candidate = line.isEmpty ? word : line + " " + word
        if DisplayWidth.of(candidate) > width {
            if !line.isEmpty { lines.append(line) }
            push(word)
        } else {
            line = candidate
        }
    }
    if !line.isEmpty { lines.append(line) }
    return Array(lines.prefix(maximumLines))
}

/// The history: a chart beside the latest entries when there is room, else the entries only (the
/// chart goes first when the screen is short or narrow), as many as fit.
private func renderHistory(_ state: AppState, x: Int, y: Int, width: Int, height: Int, into buffer: inout CellBuffer) {
    let focused = state.historySelection != nil
    let metric = state.historyMetric
    let history = state.account?.history(of: metric) ?? .empty
    let title = titleCased(tr("{measurement} history", ["measurement": metric.complement]))
    let inner = drawBox(
        focused ? title + " " + tr("(↑↓ choose, d remove, e correct)") : title, x: x, y: y, width: width,
        height: height, focused: focused, into: &buffer)
    let entries = history.entries
    let units = ProfileValues(state).unitSystem
    let withChart = inner.height >= 6 && inner.width >= 60 && !entries.isEmpty
    // The list as wide as its rows in view need (40 columns in English), at most half the box.
    let inView = entries.prefix(max(inner.height, (state.historySelection ?? 0) + 1))
    let needed = HistoryChart.listWidth(inView, metric: metric, unitSystem: units, timeZone: state.timeZone)
    let listWidth = withChart ? min(max(40, needed), inner.width / 2) : inner.width - 1
    if withChart {
        HistoryChart.render(
            history.chart, metric: metric, unitSystem: units, timeZone: state.timeZone, graphics: state.graphics,
            into: &buffer, x: inner.x,
            y: inner.y, width: inner.width - listWidth - 1, height: inner.height, style: .plain,
            total: history.count)
    }
    HistoryChart.list(
        entries, metric: metric, unitSystem: units, timeZone: state.timeZone, into: &buffer,
        x: inner.x + inner.width - listWidth,
        y: inner.y, width: listWidth, height: inner.height, style: .plain, selected: state.historySelection,
        isNewestFirst: true)
}

/// The sync details: every change with its state and the server's message, wrapped, scrolled with
/// PgUp/PgDn when longer than the box.
private func renderSyncDetails(
    _ state: AppState, x: Int, y: Int, width: Int, height: Int, into buffer: inout CellBuffer
) {
    guard let account = state.account else { return }
    let lines = syncDetailLines(state, account: account, width: width - 4)
    let visible = height - 2
    let scroll = max(0, min(state.detailsScroll, lines.count - visible))
    let title =
        lines.count > visible
        ? tr(
            "Sync details ({first}–{last} of {count}, PgUp/PgDn)",
            [
                "first": String(scroll + 1), "last": String(min(lines.count, scroll + visible)),
                "count": String(lines.count),
            ])
        : tr("Sync details")
    let inner = drawBox(title, x: x, y: y, width: width, height: height, into: &buffer)
    for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
        buffer.put(line.text, x: inner.x + 1, y: inner.y + row, style: line.style, limit: inner.width - 2)
    }
}

/// The sync details' lines at `width` columns.
func syncDetailLines(_ state: AppState, account: AccountView, width: Int) -> [(text: String, style: CellStyle)] {
    let changes = account.pendingChanges
    let last =
        account.lastSyncAt.map { tr("Last sync {time}", ["time": clockTime($0, in: state.timeZone)]) }
        ?? tr("Never synced")
    let server = tr("server {server}", ["server": account.server])
    var lines = wrap("\(last) · \(server)", width: width, maximumLines: 4).map { ($0, Styles.muted) }
    if changes.isEmpty { return lines + [(ProfileSentences.everyChangeSent, Styles.good)] }
    for conflict in account.conflicts {
        let line =
            "! "
            + tr(
                "conflict  {field}: here \"{local}\", on the server \"{server}\" · k keep this machine's · t take the server's",
                [
                    "field": conflict.field, "local": TextSanitizer.sanitize(conflict.local),
                    "server": TextSanitizer.sanitize(conflict.server),
                ])
        lines += wrap(line, width: width, maximumLines: 8).map { ($0, Styles.error) }
    }
    for change in changes {
        // The two marks padded to one width, so the changes line up.
        let (pending, rejected) = (tr("pending"), tr("rejected"))
        let markWidth = max(DisplayWidth.of(pending), DisplayWidth.of(rejected))
        let word = change.rejection == nil ? pending : rejected
        let mark =
            (change.rejection == nil ? "○ " : "! ") + word
            + String(repeating: " ", count: markWidth - DisplayWidth.of(word))
        var line = "\(mark)  \(change.summary)"
        if let rejection = change.rejection {
            line += ": \(TextSanitizer.sanitize(rejection))"
        } else {
            let notes = change.notes(now: state.now)
            if !notes.isEmpty { line += " (\(notes.joined(separator: "; ")))" }
        }
        let style = change.rejection == nil ? CellStyle.plain : Styles.error
        lines += wrap(line, width: width, maximumLines: 8).map { ($0, style) }
    }
    if account.unlistedChanges > 0 {
        let more = trn(
            "…and {count} more change", "…and {count} more changes", count: account.unlistedChanges)
        lines.append((more, Styles.muted))
    }
    return lines
}
