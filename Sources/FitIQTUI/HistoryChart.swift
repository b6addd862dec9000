import FitIQCore
import FitIQLocalization
import FitIQWords
import Synchronization

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
        tr("No {measurement} history yet.", ["measurement": metric.complement])
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
        let drawing = Drawing(
            entries: entries, words: Words(metric: metric, unitSystem: unitSystem, timeZone: timeZone),
            graphics: graphics, width: width, height: height, style: style, total: total)
        if let cells = lastDrawn.withLock({ $0?.drawing == drawing ? $0?.cells : nil }) {
            buffer.put(cells, x: x, y: y)
            return
        }
        var cells = CellBuffer(width: width, height: height)
        draw(
            entries, metric: metric, unitSystem: unitSystem, timeZone: timeZone, graphics: graphics, into: &cells,
            width: width, height: height, style: style, total: total)
        lastDrawn.withLock { $0 = (drawing, cells) }
        buffer.put(cells, x: x, y: y)
    }

    /// Everything a chart's cells follow from. The editor draws a frame for every key, and the profile's
    /// chart (hundreds of points sorted, smoothed and rasterised: half a frame's work) changes only with
    /// the history, the size or the settings: the last one drawn is kept and copied while they stay.
    /// Comparing the entries costs little while they are the same array (its storage is compared first).
    struct Drawing: Equatable {
        var entries: [ProgressEntry]
        var words: Words
        var graphics: ChartGraphics
        var width: Int
        var height: Int
        var style: CellStyle
        var total: Int?
    }

    private static let lastDrawn = Mutex<(drawing: Drawing, cells: CellBuffer)?>(nil)

    /// Draws the chart into `buffer` from its top left corner, without the memo (``render``).
    static func draw(
        _ entries: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone,
        graphics: ChartGraphics, into buffer: inout CellBuffer, width: Int, height: Int, style: CellStyle,
        total: Int?
    ) {
        let (x, y) = (0, 0)
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
        let usable = entries.filter { $0.type == metric.type && $0.quantity.isFinite }
        // A summary's series comes oldest first, an instant once: already in order.
        if zip(usable, usable.dropFirst()).allSatisfy({ $0.loggedAt < $1.loggedAt }) { return usable }
        return usable.enumerated()
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

    /// `Jan 2024`, in the language's order.
    static func monthYear(_ date: CalendarDate) -> String {
        trc("axis date", "{month} {year}", ["month": monthAbbreviation(date.month), "year": String(date.year)])
    }

    /// `Nov 23` (German `23. Nov`), in the language's order.
    static func monthDay(_ date: CalendarDate) -> String {
        trc("axis date", "{month} {day}", ["month": monthAbbreviation(date.month), "day": String(date.day)])
    }

    /// One line for rectangles too small for a chart: the latest value and the extent of the history.
    static func summary(
        _ points: [ProgressEntry], metric: Metric, unitSystem: UnitSystem, timeZone: LocalZone, total: Int? = nil
    ) -> String {
        guard let oldest = points.first, let newest = points.last else { return emptyMessage(metric) }
        let latest = metric.format(newest.quantity, unitSystem: unitSystem)
        let day = CalendarDate(containing: newest.loggedAt, in: timeZone)
        guard (total ?? points.count) > 1 else {
            return ProfileSentences.value(latest, on: day)
        }
        let since = CalendarDate(containing: oldest.loggedAt, in: timeZone)
        return ProfileSentences.value(latest, on: day) + " "
            + trn(
                "({count} entry since {day})", "({count} entries since {day})", count: total ?? points.count,
                ["day": since.description])
    }
}

/// A month's short name on a chart's axis (`Jan`, `Mär`): ISO dates elsewhere, but words here.
func monthAbbreviation(_ month: Int) -> String {
    switch month {
    case 1: trc("month", "Jan")
    case 2: trc("month", "Feb")
    case 3: trc("month", "Mar")
    case 4: trc("month", "Apr")
    case 5: trc("month", "May")
    case 6: trc("month", "Jun")
    case 7: trc("month", "Jul")
    case 8: trc("month", "Aug")
    case 9: trc("month", "Sep")
    case 10: trc("month", "Oct")
    case 11: trc("month", "Nov")
    default: trc("month", "Dec")
    }
}
