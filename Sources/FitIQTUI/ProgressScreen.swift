import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The range the progress screen shows.
public enum ProgressRange: Int, CaseIterable, Sendable {
    case fourWeeks, threeMonths, year, all

    /// How many days back it starts (`nil`: the whole history).
    public var days: Int? {
        switch self {
        case .fourWeeks: 28
        case .threeMonths: 91
        case .year: 365
        case .all: nil
        }
    }

    /// `4 weeks`, for the title and the rate.
    public var label: String {
        switch self {
        case .fourWeeks: "4 weeks"
        case .threeMonths: "3 months"
        case .year: "1 year"
        case .all: "all"
        }
    }

    /// `over the last 4 weeks`.
    var span: String {
        switch self {
        case .year: "over the last year"
        case .all: "over the whole history"
        default: "over the last \(label)"
        }
    }
}

/// The symbols a chart is drawn with.
public enum ChartGraphics: String, CaseIterable, Sendable {
    /// Braille dots, 2×4 to a cell.
    case braille
    /// Half blocks, 1×2 to a cell.
    case block
    /// Plain ASCII, one mark to a cell.
    case ascii

    /// The choice for a terminal: `FITIQ_GRAPHICS` when set, else no braille on the Linux console or
    /// without a UTF-8 locale (`LC_ALL`, `LC_CTYPE`, `LANG`), and ASCII without UTF-8 at all.
    public static func choose(environment: [String: String]) -> ChartGraphics {
        if let chosen = environment["FITIQ_GRAPHICS"].flatMap({ ChartGraphics(rawValue: $0.lowercased()) }) {
            return chosen
        }
        let locale =
            environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
        let utf8 = locale.lowercased().replacing("-", with: "").contains("utf8")
        if environment["TERM"] == "linux" { return utf8 ? .block : .ascii }
        return utf8 ? .braille : .block
    }
}

/// The progress screen: one metric over a range, loaded in the background.
public struct ProgressScreen: Sendable, Equatable {
    public var series = MeasurementSeries.metric(.weight)
    public var range: ProgressRange = .fourWeeks
    /// The histories read since the screen opened, by series: going back to a metric reads nothing.
    /// Emptied when the account changes.
    public var histories: [MeasurementSeries: ProgressHistory] = [:]
    /// `series`' whole history with its trend; `nil` while it is read.
    public var history: ProgressHistory? { histories[series] }
    /// What is shown: `range`'s cut of `history`.
    public var report: ProgressReport?

    public init() {}

    /// The series it cycles through.
    static let metrics: [MeasurementSeries] = [.metric(.weight), .metric(.bodyFat), .metric(.height), .bmi]

    /// The first instant of the range, as of `now`.
    func since(now: Date) -> Date? {
        range.days.map { now.addingTimeInterval(-Double($0) * 86_400) }
    }

    /// Cuts the report for `range` from the history read (nothing is read again).
    mutating func cut(now: Date, in zone: LocalZone) {
        report = history.map { $0.report(since: since(now: now), in: zone) }
    }
}

/// Keys on the progress screen: ←/→ the range, Tab the metric, Esc or q back.
func handleProgress(_ state: inout AppState, _ key: Key) -> [Effect] {
    var screen = state.progress
    switch key {
    case .escape, .character("q"), .character("p"):
        state.screen = .profile
        return []
    case .right, .character("l"), .character("]"):
        screen.range = ProgressRange(rawValue: (screen.range.rawValue + 1) % ProgressRange.allCases.count) ?? .all
    case .left, .character("h"), .character("["):
        let count = ProgressRange.allCases.count
        screen.range = ProgressRange(rawValue: (screen.range.rawValue + count - 1) % count) ?? .fourWeeks
    case .tab, .character("m"):
        let metrics = ProgressScreen.metrics
        let index = metrics.firstIndex(of: screen.series) ?? 0
        screen.series = metrics[(index + 1) % metrics.count]
    case .backTab:
        let metrics = ProgressScreen.metrics
        let index = metrics.firstIndex(of: screen.series) ?? 0
        screen.series = metrics[(index + metrics.count - 1) % metrics.count]
    case .character("?"):
        state.overlay = .help
        return []
    default:
        return []
    }
    if screen.history != nil {
        // Another range, or a metric read before: cut from what was read.
        screen.cut(now: state.now, in: state.timeZone)
        state.progress = screen
        return []
    }
    screen.report = nil
    state.progress = screen
    return [.loadProgress(screen.series)]
}

/// Opens the progress screen on the measurement focused (weight otherwise) and asks for its data.
func openProgress(_ state: inout AppState) -> [Effect] {
    var screen = state.progress
    if state.profile.focus == .bmi {
        screen.series = .bmi
    } else if let metric = state.profile.focus.metric ?? (state.historySelection == nil ? nil : state.historyMetric) {
        screen.series = .metric(metric)
    }
    screen.histories = [:]
    screen.report = nil
    state.progress = screen
    state.screen = .progress
    return [.loadProgress(screen.series)]
}

/// The progress screen: a title, the sentences (latest, trend and rate, lowest and highest), then
/// the chart in what is left above the `bottom` rows.
func renderProgress(_ state: AppState, into buffer: inout CellBuffer, bottom: Int) {
    renderTitle(state, into: &buffer)
    let screen = state.progress
    let units = ProfileValues(state).unitSystem
    let title = "\(screen.series.label) · \(screen.range.label) (←/→ range, Tab metric, Esc back)"
    let inner = drawBox(
        title, x: 0, y: 1, width: buffer.width, height: buffer.height - 1 - bottom, focused: true, into: &buffer)
    guard let report = screen.report else {
        buffer.put("Reading the history…", x: inner.x + 1, y: inner.y, style: Styles.muted, limit: inner.width - 2)
        return
    }
    let lines = progressSentences(report, range: screen.range, units: units, timeZone: state.timeZone)
    var row = inner.y
    for line in lines {
        for part in wrap(line, width: inner.width - 2, maximumLines: 2) where row < inner.y + inner.height {
            buffer.put(part, x: inner.x + 1, y: row, limit: inner.width - 2)
            row += 1
        }
    }
    let chartHeight = inner.y + inner.height - row - 1
    guard report.points.count > 1, chartHeight >= 3 else { return }
    ProgressChart(
        report: report, units: units, timeZone: state.timeZone, graphics: state.graphics,
        dateOfBirth: state.account?.state.profile?.dateOfBirth
    ).draw(
        into: &buffer, x: inner.x, y: row + 1, width: inner.width, height: chartHeight)
}

/// What the chart shows, as sentences (also what plain mode says).
func progressSentences(_ report: ProgressReport, range: ProgressRange, units: UnitSystem, timeZone: LocalZone)
    -> [String]
{
    let series = report.series
    let show = { (value: Double) in series.format(value, unitSystem: units) }
    let day = { (entry: ProgressEntry) in CalendarDate(containing: entry.loggedAt, in: timeZone).description }
    guard let latest = report.latest, let trend = report.trend else {
        return ["No \(series.missingText) \(range.span)."]
    }
    var lines = ["Latest \(show(latest.quantity)) on \(day(latest))."]
    var sentence = "Trend \(show(trend))"
    if let rate = report.weeklyRate {
        sentence += ", \(series.rateText(rate, unitSystem: units)) \(range.span)"
    }
    lines.append(sentence + ".")
    if let lowest = report.lowest, let highest = report.highest {
        lines.append(
            "Lowest \(show(lowest.quantity)) on \(day(lowest)); highest \(show(highest.quantity)) on \(day(highest)).")
    }
    return lines
}

/// A line chart of readings (dots) and their trend (a line), in braille, half blocks or ASCII; the
/// trend is told apart by its symbol as well as its colour.
struct ProgressChart {
    let report: ProgressReport
    let units: UnitSystem
    let timeZone: LocalZone
    let graphics: ChartGraphics
    /// For BMI: the WHO adult bands are drawn from the 20th birthday on.
    var dateOfBirth: CalendarDate?

    /// Sub-cell dots per cell, across and down.
    private var resolution: (x: Int, y: Int) {
        switch graphics {
        case .braille: (2, 4)
        case .block: (1, 2)
        case .ascii: (1, 1)
        }
    }

    func draw(into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int) {
        let points = report.points
        let values = points.flatMap { [$0.entry.quantity, $0.trend] }
        guard let low = values.min(), let high = values.max(), let first = points.first, let last = points.last
        else { return }
        let series = report.series
        let highLabel = series.format(high, unitSystem: units)
        let lowLabel = series.format(low, unitSystem: units)
        let labelWidth = max(DisplayWidth.of(highLabel), DisplayWidth.of(lowLabel))
        let plot = (x: x + labelWidth + 2, width: width - labelWidth - 3, rows: height - 1)
        guard plot.width >= 8, plot.rows >= 2 else { return }
        buffer.put(highLabel, x: x + labelWidth - DisplayWidth.of(highLabel), y: y, style: Styles.muted)
        buffer.put(lowLabel, x: x + labelWidth - DisplayWidth.of(lowLabel), y: y + plot.rows - 1, style: Styles.muted)
        for row in 0..<plot.rows { buffer.put("│", x: plot.x - 1, y: y + row, style: Styles.border) }

        let (dotsX, dotsY) = resolution
        let columns = plot.width * dotsX
        let rows = plot.rows * dotsY
        let start = first.entry.loggedAt
        let span = max(1, last.entry.loggedAt.timeIntervalSince(start))
        let spread = high > low ? high - low : 1
        func dot(_ at: Date, _ value: Double) -> (Int, Int) {
            let column = Int((at.timeIntervalSince(start) / span * Double(columns - 1)).rounded())
            let row = Int(((high - value) / spread * Double(rows - 1)).rounded())
            return (min(columns - 1, max(0, column)), min(rows - 1, max(0, row)))
        }
        var readings = Set<Int>()
        var trend = Set<Int>()
        for point in points {
            let (column, row) = dot(point.entry.loggedAt, point.entry.quantity)
            readings.insert(row * columns + column)
        }
        var previous: (Int, Int)?
        for point in points {
            let current = dot(point.entry.loggedAt, point.trend)
            for (column, row) in Self.line(from: previous ?? current, to: current) {
                trend.insert(row * columns + column)
            }
            previous = current
        }
        if series == .bmi {
            // The WHO adult bands' edges as reference lines, from the day the person turned 20 (all of
            // it when the date of birth is unknown): 18.5, 25 and 30.
            let adult = dateOfBirth.flatMap { birth in
                CalendarDate(year: birth.year + BodyMassIndex.adultAge, month: birth.month, day: min(birth.day, 28))?
                    .instant(atHour: 0, in: timeZone)
            }
            for edge in [18.5, 25, 30] where edge > low && edge < high {
                let (_, row) = dot(start, edge)
                let from = adult.map { $0 <= start ? 0 : dot($0, edge).0 / dotsX } ?? 0
                guard from < plot.width else { continue }
                for column in from..<plot.width {
                    buffer.put(
                        graphics == .ascii ? "-" : "┄", x: plot.x + column, y: y + row / dotsY, style: Styles.border)
                }
                // Labelled where the line starts: a rising series leaves that end free more often.
                let label = " " + DecimalText.format(edge, places: 1) + " "
                buffer.put(label, x: plot.x + from, y: y + row / dotsY, style: Styles.muted, limit: plot.width - from)
            }
        }
        for cellRow in 0..<plot.rows {
            for cellColumn in 0..<plot.width {
                var trendBits = 0
                var hasReading = false
                for dy in 0..<dotsY {
                    for dx in 0..<dotsX {
                        let index = (cellRow * dotsY + dy) * columns + cellColumn * dotsX + dx
                        if trend.contains(index) { trendBits |= Self.bit(dx, dy, graphics) }
                        if readings.contains(index) { hasReading = true }
                    }
                }
                let glyph: String
                let style: CellStyle
                if trendBits != 0 {
                    glyph = Self.trendGlyph(trendBits, graphics)
                    style = Styles.accent
                } else if hasReading {
                    glyph = graphics == .ascii ? "." : "·"
                    style = .plain
                } else {
                    continue
                }
                buffer.put(glyph, x: plot.x + cellColumn, y: y + cellRow, style: style)
            }
        }
        let startDay = CalendarDate(containing: start, in: timeZone).description
        let endDay = CalendarDate(containing: last.entry.loggedAt, in: timeZone).description
        buffer.put(startDay, x: plot.x, y: y + plot.rows, style: Styles.muted)
        if plot.width >= 2 * startDay.count + 2 {
            buffer.put(endDay, x: plot.x + plot.width - endDay.count, y: y + plot.rows, style: Styles.muted)
        }
        let legend =
            switch graphics {
            case .braille: "· readings  ⠉ trend"
            case .block: "· readings  ▀ trend"
            case .ascii: ". readings  * trend"
            }
        if plot.width >= legend.count + 2 * startDay.count + 4 {
            buffer.put(legend, x: plot.x + (plot.width - legend.count) / 2, y: y + plot.rows, style: Styles.muted)
        }
    }

    /// The bit of dot (`dx`, `dy`) of a cell: braille's dot numbering, or the half (upper 1, lower 2).
    static func bit(_ dx: Int, _ dy: Int, _ graphics: ChartGraphics) -> Int {
        switch graphics {
        case .braille:
            // Dots 1-2-3-7 down the left column, 4-5-6-8 down the right.
            let left = [0x01, 0x02, 0x04, 0x40]
            let right = [0x08, 0x10, 0x20, 0x80]
            return (dx == 0 ? left : right)[dy]
        case .block: return dy == 0 ? 1 : 2
        case .ascii: return 1
        }
    }

    static func trendGlyph(_ bits: Int, _ graphics: ChartGraphics) -> String {
        switch graphics {
        case .braille: String(Character(Unicode.Scalar(UInt32(0x2800 + bits)) ?? "⠿"))
        case .block: bits == 3 ? "█" : bits == 1 ? "▀" : "▄"
        case .ascii: "*"
        }
    }

    /// The dots of a straight line from `start` to `end`, both included.
    static func line(from start: (Int, Int), to end: (Int, Int)) -> [(Int, Int)] {
        let steps = max(abs(end.0 - start.0), abs(end.1 - start.1))
        guard steps > 0 else { return [start] }
        return (0...steps).map { step in
            let fraction = Double(step) / Double(steps)
            return (
                start.0 + Int((Double(end.0 - start.0) * fraction).rounded()),
                start.1 + Int((Double(end.1 - start.1) * fraction).rounded())
            )
        }
    }
}
