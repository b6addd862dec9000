import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HistoryChart {
    /// The marker after an entry the server does not have yet.
    static var pendingMarker: String { tr("(pending)") }

    /// Draws the latest `height` entries, newest first, one per row and as many as fit: the date,
    /// the height in the user's units, where it came from (`manual`, `health`, `server`) and
    /// `(pending)` for an entry not synced yet. Clears the rectangle first and stays inside it.
    public static func list(
        _ entries: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone,
        into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int, style: CellStyle
    ) {
        list(
            entries, metric: metric, unitSystem: unitSystem, timeZone: timeZone, into: &buffer, x: x, y: y,
            width: width,
            height: height, style: style, selected: nil)
    }

    /// ``list(_:metric:unitSystem:timeZone:into:x:y:width:height:style:)`` with the entry `selected` (newest first)
    /// marked and kept in view.
    ///
    /// With `isNewestFirst`, `entries` are the entries already in the list's order (as
    /// ``chronological(_:of:)`` reversed gives them), and only the rows shown are looked at.
    public static func list(
        _ entries: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone,
        into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int, style: CellStyle, selected: Int?,
        isNewestFirst: Bool = false
    ) {
        guard width > 0, height > 0 else { return }
        buffer.fill(x: x, y: y, width: width, height: height, style: style)
        // The chosen entry (newest first) stays in view: the list scrolls past the first rows if need be.
        let first = selected.map { max(0, $0 - height + 1) } ?? 0
        let ordered = isNewestFirst ? entries : Array(chronological(entries, of: metric).reversed())
        let shown = ordered.dropFirst(first).prefix(height)
        guard !shown.isEmpty else {
            buffer.put(emptyMessage(metric), x: x, y: y, style: style, limit: width)
            return
        }
        let heights = shown.map { metric.format($0.quantity, unitSystem: unitSystem) }
        let heightWidth = heights.map(DisplayWidth.of).max() ?? 0
        for (row, (entry, text)) in zip(shown, heights).enumerated() {
            let date = CalendarDate(containing: entry.loggedAt, in: timeZone)
            let padding = String(repeating: " ", count: heightWidth - DisplayWidth.of(text))
            var line = "\(date)  \(padding)\(text)  \(entry.source.shown)"
            if !entry.isSynced { line += "  \(pendingMarker)" }
            let chosen = selected == first + row
            buffer.put(
                chosen ? "›" + line : line, x: x, y: y + row, style: chosen ? CellStyle(.reverse) : style, limit: width)
        }
    }
}
