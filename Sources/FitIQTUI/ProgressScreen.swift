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

/// What the progress screen's keys do (``KeyTable/progress``): the range, the metric, back.
func performOnProgress(_ action: KeyAction, _ state: inout AppState) -> [Effect] {
    var screen = state.progress
    let count = ProgressRange.allCases.count
    let metrics = ProgressScreen.metrics
    let index = metrics.firstIndex(of: screen.series) ?? 0
    switch action {
    case .leaveProgress:
        state.screen = .profile
        return []
    case .nextRange:
        screen.range = ProgressRange(rawValue: (screen.range.rawValue + 1) % count) ?? .all
    case .previousRange:
        screen.range = ProgressRange(rawValue: (screen.range.rawValue + count - 1) % count) ?? .fourWeeks
    case .nextSeries:
        screen.series = metrics[(index + 1) % metrics.count]
    case .previousSeries:
        screen.series = metrics[(index + metrics.count - 1) % metrics.count]
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
    Chart(
        series: report.series, points: report.points, units: units, timeZone: state.timeZone,
        graphics: state.graphics, dateOfBirth: state.account?.profile?.dateOfBirth
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
