import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A measurement's history in the profile's panel: the editor's one ``Chart`` (readings as dots, the
/// trend as a line) and a list of the latest entries; a one-line summary where no chart fits.
public enum HistoryChart {
    /// What an empty history shows: `No weight history yet.`
    static func emptyMessage(_ metric: Metric) -> String {
        "No \(metric.name) history yet."
    }

    /// Draws the chart of the `metric` entries (in any order; newest first as stored) into the
    /// rectangle at (`x`, `y`), `width` × `height` cells, clearing it first.
    ///
    /// The last row holds the dates. With no entries it says so; when the rectangle is too small for
    /// a chart it draws a one-line summary of the latest value.
    ///
    /// `entries` may be a history thinned to a few points per column (``HistorySummary/series``);
    /// `total` then gives the number of entries of the whole history for the one-line summary.
    public static func render(
        _ entries: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone,
        graphics: ChartGraphics = .braille, into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int,
        style: CellStyle, total: Int? = nil
    ) {
        guard width > 0, height > 0 else { return }
        buffer.fill(x: x, y: y, width: width, height: height, style: style)
        let points = chronological(entries, of: metric)
        guard !points.isEmpty else {
            buffer.put(emptyMessage(metric), x: x, y: y, style: style, limit: width)
            return
        }
        let chart = Chart(
            series: .metric(metric), points: Trend.line(points), units: unitSystem, timeZone: timeZone,
            graphics: graphics)
        if !chart.draw(into: &buffer, x: x, y: y, width: width, height: height) {
            let summary = summary(points, metric: metric, unitSystem: unitSystem, timeZone: timeZone, total: total)
            buffer.put(summary, x: x, y: y, style: style, limit: width)
        }
    }

    /// The entries of `metric` with a usable value, oldest first; of entries logged at the same
    /// instant, the one listed first (the newest as stored) comes last, so it wins.
    static func chronological(_ entries: [ProgressEntry], of metric: Metric) -> [ProgressEntry] {
        entries.enumerated()
            .filter { $0.element.type == metric.type && $0.element.quantity.isFinite }
            .sorted { ($0.element.loggedAt, $1.offset) < ($1.element.loggedAt, $0.offset) }
            .map(\.element)
    }

    /// The x-axis labels: both dates as `YYYY-MM-DD`, else as `Mon YYYY`, whichever fits in `width`
    /// (one label when both read the same); empty when none fits.
    static func dateLabels(from start: Date, to end: Date, timeZone: LocalZone, width: Int) -> [String] {
        let first = CalendarDate(containing: start, in: timeZone)
        let last = CalendarDate(containing: end, in: timeZone)
        for (from, to) in [(first.description, last.description), (monthYear(first), monthYear(last))] {
            if from == to, DisplayWidth.of(from) <= width { return [from] }
            if from != to, DisplayWidth.of(from) + 1 + DisplayWidth.of(to) <= width { return [from, to] }
        }
        return []
    }

    /// `Jan 2024`, in English whatever the locale (like the rest of the interface).
    static func monthYear(_ date: CalendarDate) -> String {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(months[max(0, min(11, date.month - 1))]) \(date.year)"
    }

    /// One line for rectangles too small for a chart: the latest value and the extent of the history.
    static func summary(
        _ points: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone, total: Int? = nil
    ) -> String {
        guard let oldest = points.first, let newest = points.last else { return emptyMessage(metric) }
        let latest = metric.format(newest.quantity, unitSystem: unitSystem)
        let day = CalendarDate(containing: newest.loggedAt, in: timeZone)
        guard (total ?? points.count) > 1 else { return "\(latest) on \(day)" }
        let since = CalendarDate(containing: oldest.loggedAt, in: timeZone)
        return "\(latest) on \(day) (\(total ?? points.count) entries since \(since))"
    }
}
