import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Boxes drawn over the screen: help, the quit prompt, the discard prompt and the language list.
func renderOverlay(_ overlay: AppState.Overlay, state: AppState, into buffer: inout CellBuffer) -> (x: Int, y: Int)? {
    switch overlay {
    case .help:
        var lines = [
            "Tab / Shift-Tab / ↑ ↓   move between fields",
            "Enter                   edit the field, or confirm the edit",
            "Esc                     cancel the edit",
            "Ctrl-S                  save every form with edits",
            "h                       height history / sync details",
            "s                       sync now",
            "r / x                   retry / discard rejected changes (sync details)",
        ]
        if state.canImportHealth {
            lines.append("i                       import health data (export.zip or export.xml)")
        }
        lines += [
            "?                       this help",
            "q                       quit (asks first when edits are unsaved)",
            "",
            "Date of birth is set at registration. Biological sex comes only from",
            "your health data and is never edited here.",
            "",
            "Press any key to close.",
        ]
        drawPanel("Help", lines: lines, state: state, into: &buffer)
    case .quitPrompt:
        drawPanel(
            "Unsaved edits",
            lines: [
                "You have edits that are not saved.", "", "y  quit and discard them", "s  save, then quit",
                "n  stay (or Esc)",
            ],
            state: state, into: &buffer)
    case .discardPrompt:
        drawPanel(
            "Discard rejected changes?",
            lines: [
                "The rejected changes are dropped and the server's values shown again.", "",
                "y  discard   any other key  keep",
            ],
            state: state, into: &buffer)
    case .languagePicker(let filter, let selection):
        let choices = LanguageChoices.matching(filter.text)
        var lines = ["Type to filter, ↑↓ choose, Enter pick (or use what you typed), Esc cancel", ""]
        let shown = Array(choices.prefix(10))
        for (index, choice) in shown.enumerated() {
            let code = choice.code + String(repeating: " ", count: max(0, 8 - choice.code.count))
            lines.append("\(index == selection ? "›" : " ") \(code) \(choice.name)")
        }
        if choices.isEmpty { lines.append("  (no match: Enter uses \"\(TextSanitizer.sanitize(filter.text))\")") }
        let origin = drawPanel("Language", lines: lines + ["", ""], state: state, into: &buffer)
        let column = filter.render(
            into: &buffer, x: origin.x + 9, y: origin.y + origin.height - 1, width: 20, style: Styles.editing)
        buffer.put("Filter:", x: origin.x + 1, y: origin.y + origin.height - 1, style: Styles.label)
        return (column, origin.y + origin.height - 1)
    case .importPrompt(let path, let error):
        let lines = [
            "Path of your Apple Health export (export.zip or export.xml; ~ allowed):", "", "",
            "Enter import   Esc cancel",
        ]
        let origin = drawPanel(
            "Import health data", lines: lines + (error == nil ? [] : [""]), state: state, into: &buffer)
        if let error {
            buffer.put(error, x: origin.x + 1, y: origin.y + 4, style: Styles.error, limit: origin.width - 1)
        }
        buffer.put("›", x: origin.x + 1, y: origin.y + 2, style: Styles.accent)
        let column = path.render(
            into: &buffer, x: origin.x + 3, y: origin.y + 2, width: origin.width - 4, style: Styles.editing)
        return (column, origin.y + 2)
    case .importing(let path, let fraction):
        let name = TextSanitizer.sanitize(String(path.text.split(separator: "/").last ?? ""))
        let barWidth = 40
        var bar = "reading…"
        if let fraction {
            let filled = max(0, min(barWidth, Int((fraction * Double(barWidth)).rounded(.down))))
            bar =
                String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
                + " \(Int(fraction * 100)) %"
        }
        drawPanel(
            "Import health data", lines: ["Reading \(name)", "", bar, "", "Esc stops (nothing is imported)"],
            state: state, into: &buffer)
    case .importResult(let lines):
        drawPanel("Health data imported", lines: lines + ["", "Press any key to close."], state: state, into: &buffer)
    }
    return nil
}

/// A centred box holding `lines`; returns its inner rectangle.
@discardableResult
private func drawPanel(
    _ title: String, lines: [String], state: AppState, into buffer: inout CellBuffer
) -> (x: Int, y: Int, width: Int, height: Int) {
    let width = min(buffer.width - 4, (lines.map(DisplayWidth.of).max() ?? 20) + 4)
    let height = min(buffer.height - 2, lines.count + 2)
    let x = (buffer.width - width) / 2
    let y = (buffer.height - height) / 2
    buffer.fill(x: x, y: y, width: width, height: height)
    let inner = drawBox(title, x: x, y: y, width: width, height: height, focused: true, into: &buffer)
    for (index, line) in lines.enumerated() where index < inner.height {
        buffer.put(line, x: inner.x + 1, y: inner.y + index, limit: inner.width - 1)
    }
    return inner
}
