import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Boxes drawn over the screen: help, the quit prompt, the discard prompt and the language list.
func renderOverlay(_ overlay: AppState.Overlay, state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    switch overlay {
    case .help:
        let notes: [String] = [
            tr(
                "Date of birth is set at registration. Biological sex comes only from your health data and is never edited here."
            ),
            "", tr("Paste into a field while editing it: a paste is text, never keys."),
            "",
            tr(
                "The mouse: click a field, an entry or a key hint; the wheel scrolls. To select text meanwhile, hold Shift as you drag (in most terminals), or start with --no-mouse or FITIQ_MOUSE=0."
            ),
            "", tr("↑↓ PgUp PgDn scroll; any other key closes."),
        ]
        // Every binding of the key table, place by place.
        var lines: [String] = []
        for section in KeyTable.helpSections {
            lines +=
                [section.title] + helpLines(section.rows.map { ($0.keys, $0.help) }, width: buffer.width - 7) + [""]
        }
        lines += [tr("The commands of the : line (plain mode's):")] + PromptCommand.helpLines + [""] + notes
        drawPanel(tr("Help"), lines: lines, state: state, into: &buffer, scroll: state.helpScroll)
    case .quitPrompt:
        drawPanel(
            tr("Unsaved edits"),
            lines: [
                tr("You have edits that are not saved."), "", tr("y  quit and discard them"), tr("s  save, then quit"),
                tr("n  stay (or Esc)"),
            ],
            state: state, into: &buffer)
    case .discardPrompt:
        drawPanel(
            tr("Discard rejected changes?"),
            lines: [
                tr("The rejected changes are dropped and the server's values shown again."), "",
                tr("y  discard   any other key  keep"),
            ],
            state: state, into: &buffer)
    case .languagePicker(let filter, let selection):
        let choices = LanguageChoices.matching(filter.text)
        var lines = [tr("Type to filter, ↑↓ choose, Enter pick (or use what you typed), Esc cancel"), ""]
        let shown = Array(choices.prefix(10))
        for (index, choice) in shown.enumerated() {
            let code = choice.code + String(repeating: " ", count: max(0, 8 - choice.code.count))
            lines.append("\(index == selection ? "›" : " ") \(code) \(choice.name)")
        }
        if choices.isEmpty {
            lines.append("  " + tr("(no match: Enter uses \"{text}\")", ["text": TextSanitizer.sanitize(filter.text)]))
        }
        let origin = drawPanel(FieldLabel.language.text, lines: lines + ["", ""], state: state, into: &buffer)
        let label = tr("Filter:")
        let column = filter.render(
            into: &buffer, x: origin.x + 2 + DisplayWidth.of(label), y: origin.y + origin.height - 1, width: 20,
            style: Styles.editing)
        buffer.put(label, x: origin.x + 1, y: origin.y + origin.height - 1, style: Styles.label)
        return (column, origin.y + origin.height - 1)
    case .importPrompt(let path, let error):
        // A path wants the panel's whole width; the question wraps above it (three lines at 40 columns).
        return drawPrompt(
            tr("Import health data"),
            lines: [tr("The export to import (a file, zip or folder); ~ allowed:")],
            field: path, fieldWidth: .max, after: [tr("Enter import   Esc cancel")], error: error, state: state,
            into: &buffer)
    case .importing(let path, let fraction):
        let name = TextSanitizer.sanitize(String(path.text.split(separator: "/").last ?? ""))
        let barWidth = 40
        var bar = tr("reading…")
        if let fraction {
            let filled = max(0, min(barWidth, Int((fraction * Double(barWidth)).rounded(.down))))
            bar =
                String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
                + " \(Int(fraction * 100)) %"
        }
        drawPanel(
            tr("Import health data"),
            lines: [tr("Reading {file}", ["file": name]), "", bar, "", tr("Esc stops (nothing is imported)")],
            state: state, into: &buffer)
    case .deleteEntryPrompt(let metric, _, let summary):
        drawPanel(
            tr("Remove this {measurement}?", ["measurement": metric.complement]),
            lines: [
                tr("{entry} leaves the history, here and on the server.", ["entry": summary]), "",
                tr("y  remove it (u undoes it)   any other key  keep it"),
            ], state: state, into: &buffer)
    case .correctEntry(let metric, _, let summary, let value, let error):
        return drawPrompt(
            tr("Correct a {measurement} entry", ["measurement": metric.complement]),
            lines: [tr("The right value for {entry} (it keeps its date):", ["entry": summary])], field: value,
            after: [tr("Enter correct   Esc cancel")], error: error, state: state, into: &buffer)
    case .goalPrompt(let metric, let value, let error):
        // Short lines: at 40×12 the field and the rule still show.
        return drawPrompt(
            titleCased(tr("{measurement} goal", ["measurement": metric.complement])),
            lines: [tr("Target (and a date, YYYY-MM-DD):")], field: value,
            after: [tr("Enter set · empty clears · Esc"), tr("Kept on this machine only.")], error: error, state: state,
            into: &buffer)
    case .importPreview(_, let lines):
        drawPanel(
            tr("Import: what was found"), lines: lines + ["", tr("Enter import   Esc cancel")], state: state,
            into: &buffer)
    case .importResult(let lines):
        drawPanel(
            tr("Health data imported"), lines: lines + ["", tr("Press any key to close.")], state: state, into: &buffer)
    }
    return nil
}

/// A panel asking for one value: `lines`, a blank row, the field after `›` (at most `fieldWidth`
/// columns wide), a blank row, `after`, and the error in red below; returns where the cursor goes.
private func drawPrompt(
    _ title: String, lines: [String], field: TextField, fieldWidth: Int = 30, after: [String], error: String?,
    state: AppState, into buffer: inout CellBuffer
) -> (x: Int, y: Int) {
    // Wrapped here as the panel would wrap them, so the field's row and the error's are known.
    let width = buffer.width - (buffer.width >= 60 ? 4 : 2) - 3
    let fit = { (lines: [String]) in lines.flatMap { $0.isEmpty ? [$0] : wrap($0, width: width, maximumLines: 20) } }
    let above = fit(lines)
    let fieldRow = above.count + 1
    let errorLines = fit(error.map { [$0] } ?? [])
    var text = above + ["", ""] + fit(after)
    let errorRow = text.count + 1
    if !errorLines.isEmpty { text += [""] + errorLines }
    let origin = drawPanel(title, lines: text, state: state, into: &buffer)
    for (offset, line) in errorLines.enumerated() {
        buffer.put(line, x: origin.x + 1, y: origin.y + errorRow + offset, style: Styles.error, limit: origin.width - 1)
    }
    buffer.put("›", x: origin.x + 1, y: origin.y + fieldRow, style: Styles.accent)
    let column = field.render(
        into: &buffer, x: origin.x + 3, y: origin.y + fieldRow, width: min(fieldWidth, origin.width - 4),
        style: Styles.editing)
    return (column, origin.y + fieldRow)
}

/// The help's keys and what they do: in two columns when the panel is wide, else each key on a line
/// of its own with what it does below.
private func helpLines(_ keys: [(String, String)], width: Int) -> [String] {
    let keyWidth = keys.map { DisplayWidth.of($0.0) }.max() ?? 0
    var lines: [String] = []
    let indent = String(repeating: " ", count: keyWidth + 2)
    for (key, does) in keys {
        if width >= keyWidth + 2 + 24 {
            let pad = String(repeating: " ", count: keyWidth + 2 - DisplayWidth.of(key))
            let described: [String] = wrap(does, width: width - keyWidth - 2, maximumLines: 4)
            lines.append(key + pad + (described.first ?? ""))
            for rest in described.dropFirst() { lines.append(indent + rest) }
        } else {
            lines.append(key)
            for part in wrap(does, width: width - 2, maximumLines: 4) { lines.append("  " + part) }
        }
    }
    return lines
}

/// A centred box holding `lines`, wrapped to the screen's width; when they are more than fit, it shows
/// them from line `scroll` and says which. Returns its inner rectangle.
@discardableResult
private func drawPanel(
    _ title: String, lines: [String], state: AppState, into buffer: inout CellBuffer, scroll: Int = 0
) -> (x: Int, y: Int, width: Int, height: Int) {
    let maximumWidth = buffer.width - (buffer.width >= 60 ? 4 : 2)
    let wrapped = lines.flatMap { line in
        line.isEmpty || DisplayWidth.of(line) <= maximumWidth - 3
            ? [line] : wrap(line, width: maximumWidth - 3, maximumLines: 20)
    }
    let width = min(maximumWidth, (wrapped.map(DisplayWidth.of).max() ?? 20) + 4)
    let height = min(buffer.height - 2, wrapped.count + 2)
    let x = (buffer.width - width) / 2
    let y = (buffer.height - height) / 2
    // A blank cell around the box too, within the screen's frame (not its outer border, title bar or
    // footer): no column of the screen below shows squeezed between the screen's border and the box's.
    let (left, top) = (max(1, x - 1), max(1, y - 1))
    let (right, bottom) = (min(buffer.width - 1, x + width + 1), min(buffer.height - 1, y + height + 1))
    buffer.fill(x: left, y: top, width: right - left, height: bottom - top)
    let visible = height - 2
    let first = max(0, min(scroll, wrapped.count - visible))
    // Which lines show, kept whole when a long title must give way ("Gesundheitsdaten imp… 1–8/13").
    let lineCount = " \(first + 1)–\(first + visible)/\(wrapped.count)"
    let shownTitle =
        wrapped.count > visible ? fitted(title + lineCount, width: width - 6, keepingSuffix: lineCount) : title
    let inner = drawBox(shownTitle, x: x, y: y, width: width, height: height, focused: true, into: &buffer)
    buffer.mark(.box, x: x, y: y, width: width, height: height)
    for (index, line) in wrapped.dropFirst(first).enumerated() where index < inner.height {
        buffer.put(line, x: inner.x + 1, y: inner.y + index, limit: inner.width - 1)
    }
    return inner
}
