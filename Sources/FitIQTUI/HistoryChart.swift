import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A measurement's history drawn with block characters: a chart over time and a list of the latest entries.
///
/// The chart is a step chart of bars in eighths (`▁▂▃▄▅▆▇█`), spaced by time: each column is an
/// equal slice of the time between the first and the last entry and shows the height in effect at
/// its end. The y-axis shows the lowest and highest height in the user's units, the x-axis the
/// first and last dates. Everything stays inside the given rectangle, whatever its size.
public enum HistoryChart {
    /// The fewest columns the bars need; narrower rectangles get a one-line summary.
    static let minimumPlotWidth = 10
    /// The fewest rows of bars; lower rectangles get a one-line summary.
    static let minimumPlotRows = 2
    /// What an empty history shows: `No weight history yet.`
    static func emptyMessage(_ metric: Metric) -> String {
        "No \(metric.field.label.lowercased()) history yet."
    }
    private static let eighths: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Draws the chart of the `height` entries (in any order; newest first as stored) into the
    /// rectangle at (`x`, `y`), `width` × `height` cells, clearing it first.
    ///
    /// The last row holds the dates, the rest the bars. With no entries it says so; when the
    /// rectangle is too small for a chart it draws a one-line summary of the latest height.
    ///
    /// `entries` may be a history thinned to a few points per column (``HistorySummary/series``);
    /// `total` then gives the number of entries of the whole history for the one-line summary.
    public static func render(
        _ entries: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone,
        into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int, style: CellStyle, total: Int? = nil
    ) {
        guard width > 0, height > 0 else { return }
        buffer.fill(x: x, y: y, width: width, height: height, style: style)
        let points = chronological(entries, of: metric)
        guard let oldest = points.first, let newest = points.last else {
            buffer.put(emptyMessage(metric), x: x, y: y, style: style, limit: width)
            return
        }
        let low = points.map(\.quantity).min() ?? oldest.quantity
        let high = points.map(\.quantity).max() ?? oldest.quantity
        let isFlat = high <= low
        let lowLabel = metric.format(low, unitSystem: unitSystem)
        let highLabel = metric.format(high, unitSystem: unitSystem)
        let labelWidth = isFlat ? DisplayWidth.of(lowLabel) : max(DisplayWidth.of(lowLabel), DisplayWidth.of(highLabel))
        // Label, a space, the axis, then the bars; the last row holds the dates.
        let plot = (x: x + labelWidth + 2, width: width - labelWidth - 2, rows: height - 1)
        guard plot.width >= minimumPlotWidth, plot.rows >= minimumPlotRows else {
            let summary = summary(points, metric: metric, unitSystem: unitSystem, timeZone: timeZone, total: total)
            buffer.put(summary, x: x, y: y, style: style, limit: width)
            return
        }

        let values = columnValues(points, columns: plot.width)
        let levels = plot.rows * 8
        for (offset, value) in values.enumerated() {
            // The lowest height is one eighth high (still visible), the highest fills every row.
            // Heights come from the server and the cache unchecked: a span too wide for a Double
            // (±1e308) gives no fraction, and is drawn at the bottom rather than trapped on.
            let ratio = isFlat ? 0 : (value - low) / (high - low)
            let fraction = ratio.isFinite ? min(1, max(0, ratio)) : 0
            let level = 1 + Int((fraction * Double(levels - 1)).rounded())
            for row in 0..<plot.rows {
                let filled = min(8, level - row * 8)
                guard filled > 0 else { break }
                buffer.put(String(eighths[filled - 1]), x: plot.x + offset, y: y + plot.rows - 1 - row, style: style)
            }
        }

        let axisX = x + labelWidth + 1
        var labels = [plot.rows - 1: lowLabel]
        if !isFlat { labels[0] = highLabel }
        for row in 0..<plot.rows {
            if let label = labels[row] {
                buffer.put(label, x: x + labelWidth - DisplayWidth.of(label), y: y + row, style: style)
            }
            buffer.put(labels[row] == nil ? "│" : "┤", x: axisX, y: y + row, style: style)
        }

        let dates = dateLabels(from: oldest.loggedAt, to: newest.loggedAt, timeZone: timeZone, width: plot.width)
        let dateRow = y + plot.rows
        if let first = dates.first {
            buffer.put(first, x: plot.x, y: dateRow, style: style, limit: plot.width)
        }
        if let last = dates.last, dates.count > 1 {
            buffer.put(last, x: plot.x + plot.width - DisplayWidth.of(last), y: dateRow, style: style)
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

    /// The height in effect at the end of each of `columns` equal slices of time from the first
    /// entry to the last (`points` oldest first, not empty).
    static func columnValues(_ points: [ProgressEntry], columns: Int) -> [Double] {
        guard let start = points.first?.loggedAt, let end = points.last?.loggedAt, columns > 0 else { return [] }
        let span = end.timeIntervalSince(start)
        var values: [Double?] = Array(repeating: nil, count: columns)
        for point in points {
            // With a single instant (one entry) everything lands in the first column and is carried on.
            let fraction = span > 0 ? point.loggedAt.timeIntervalSince(start) / span : 0
            let column = min(columns - 1, max(0, Int(fraction * Double(columns))))
            values[column] = point.quantity
        }
        var current = points[0].quantity
        return values.map { value in
            if let value { current = value }
            return current
        }
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

    /// One line for rectangles too small for a chart: the latest height and the extent of the history.
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
