import FitIQCore
import FitIQLocalization
import Synchronization

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
        for (row, line) in rows(shown, metric: metric, unitSystem: unitSystem, timeZone: timeZone).enumerated() {
            let chosen = selected == first + row
            buffer.mark(.entry(first + row), x: x, y: y + row, width: width)
            buffer.put(
                chosen ? "›" + line : line, x: x, y: y + row, style: chosen ? CellStyle(.reverse) : style, limit: width)
        }
    }

    /// The columns the list needs to show `entries` whole (the choice mark included), in the current
    /// language: "manuell  (ausstehend)" is wider than "manual  (pending)".
    public static func listWidth(
        _ entries: some Collection<ProgressEntry>, metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone
    ) -> Int {
        1 + (rows(entries, metric: metric, unitSystem: unitSystem, timeZone: timeZone).map(DisplayWidth.of).max() ?? 0)
    }

    /// One line per entry: the date, the value (right-aligned), its source and the pending marker.
    ///
    /// The editor draws a frame for every key and asks for the rows twice in it (the list's width,
    /// then the list), while they change only with the entries in view and the settings: the last
    /// rows made are kept, with what they were made of.
    private static func rows(
        _ entries: some Collection<ProgressEntry>, metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone
    ) -> [String] {
        let made = (entries: Array(entries), words: Words(metric: metric, unitSystem: unitSystem, timeZone: timeZone))
        if let lines = lastRows.withLock({ $0.flatMap { $0.made == made ? $0.lines : nil } }) { return lines }
        let lines = makeRows(entries, metric: metric, unitSystem: unitSystem, timeZone: timeZone)
        lastRows.withLock { $0 = (made, lines) }
        return lines
    }

    /// The rows last made, and the entries and ``Words`` they were made of.
    private static let lastRows = Mutex<(made: (entries: [ProgressEntry], words: Words), lines: [String])?>(nil)

    /// How the entries are written, in the chart's labels as in the list's rows: the metric, the
    /// units, the time zone, and the language in force with its decimal separator.
    struct Words: Equatable {
        var metric: Metric
        var unitSystem: UnitSystem
        var timeZone: LocalZone
        var language = Localizer.current.language
        var decimalSeparator = DecimalText.separator
    }

    /// ``rows(_:metric:unitSystem:timeZone:)`` made anew.
    private static func makeRows(
        _ entries: some Collection<ProgressEntry>, metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone
    ) -> [String] {
        let values = entries.map { metric.format($0.quantity, unitSystem: unitSystem) }
        let valueWidth = values.map(DisplayWidth.of).max() ?? 0
        return zip(entries, values).map { entry, text in
            let date = CalendarDate(containing: entry.loggedAt, in: timeZone)
            let padding = String(repeating: " ", count: valueWidth - DisplayWidth.of(text))
            let line = "\(date)  \(padding)\(text)  \(entry.source.shown)"
            return entry.isSynced ? line : line + "  \(pendingMarker)"
        }
    }
}
