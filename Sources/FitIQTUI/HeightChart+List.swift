import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HeightChart {
    /// The marker after an entry the server does not have yet.
    static let pendingMarker = "(pending)"

    /// Draws the latest `height` entries, newest first, one per row and as many as fit: the date,
    /// the height in the user's units, where it came from (`manual`, `health`, `server`) and
    /// `(pending)` for an entry not synced yet. Clears the rectangle first and stays inside it.
    public static func list(
        _ entries: [ProgressEntry], unitSystem: UnitSystem, timeZone: LocalZone,
        into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int, style: CellStyle
    ) {
        guard width > 0, height > 0 else { return }
        buffer.fill(x: x, y: y, width: width, height: height, style: style)
        let shown = chronological(entries).reversed().prefix(height)
        guard !shown.isEmpty else {
            buffer.put(emptyMessage, x: x, y: y, style: style, limit: width)
            return
        }
        let heights = shown.map { Height.format($0.quantity, unitSystem: unitSystem) }
        let heightWidth = heights.map(DisplayWidth.of).max() ?? 0
        for (row, (entry, text)) in zip(shown, heights).enumerated() {
            let date = CalendarDate(containing: entry.loggedAt, in: timeZone)
            let padding = String(repeating: " ", count: heightWidth - DisplayWidth.of(text))
            var line = "\(date)  \(padding)\(text)  \(entry.source.rawValue)"
            if !entry.isSynced { line += "  \(pendingMarker)" }
            buffer.put(line, x: x, y: y + row, style: style, limit: width)
        }
    }
}
