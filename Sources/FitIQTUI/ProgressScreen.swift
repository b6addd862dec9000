import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
    /// The account's goals (read with the history).
    public var goals = Goals()
    /// The table shown instead of the chart (`t`): by week, by month, or none.
    public var table: SummaryPeriod?
    /// How many periods back from the newest the table is scrolled (↑ and the wheel).
    public var tableScroll = 0

    public init() {}

    /// Where the goal of the metric shown stands, when it has one; its rate is the range's.
    func goalStatus(in zone: LocalZone) -> GoalStatus? {
        guard let metric = series.metric, let goal = goals.goal(for: metric), let history else { return nil }
        return GoalStatus(goal: goal, history: history.points, rate: report?.weeklyRate, in: zone)
    }

    /// The series it cycles through.
    static let metrics: [MeasurementSeries] =
        [.metric(.weight), .metric(.bodyFat), .metric(.height), .bmi]
        + Metric.all.filter { !Metric.body.contains($0) }.map(MeasurementSeries.metric)

    /// Cuts the report for `range` from the history read (nothing is read again).
    mutating func cut(now: Date, in zone: LocalZone) {
        report = history.map { $0.report(since: range.since(now: now)) }
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
    case .toggleSummary:
        screen.table = screen.table == nil ? .week : screen.table == .week ? .month : nil
        screen.tableScroll = 0
        state.progress = screen
        return []
    case .scrollTableUp, .scrollTableDown:
        // At most back to the oldest period (drawing keeps a screenful in view).
        let periods = screen.table.flatMap { period in screen.report?.summaries(by: period, in: state.timeZone).count }
        screen.tableScroll = min(
            max(0, (periods ?? 1) - 1), max(0, screen.tableScroll + (action == .scrollTableUp ? 1 : -1)))
        state.progress = screen
        return []
    case .editGoal:
        guard let metric = screen.series.metric else { return [] }
        let units = ProfileValues(state).unitSystem
        // The goal there is, to change or clear (an empty value clears it).
        let current = screen.goals.goal(for: metric).map { goal in
            DecimalText.format(metric.value(goal.target, in: units).value, places: 1)
                + (goal.by.map { " \($0)" } ?? "")
        }
        state.overlay = .goalPrompt(metric, value: TextField(current ?? ""), error: nil)
        return []
    default:
        return []
    }
    screen.tableScroll = 0
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

/// The progress screen: a title, the sentences (latest, trend and rate, lowest and highest, the
/// goal), then the chart, or the table by week or month (`t`), in what is left above the `bottom` rows.
/// When the sentences would leave the chart fewer than ``chartRows`` rows of plot, they fold into one
/// line.
func renderProgress(_ state: AppState, into buffer: inout CellBuffer, bottom: Int) {
    renderTitle(state, into: &buffer)
    let screen = state.progress
    let units = ProfileValues(state).unitSystem
    let table = screen.table.map { " · " + $0.byLabel } ?? ""
    let inner = drawBox(
        "\(screen.series.label) · \(screen.range.label)\(table)", x: 0, y: 1, width: buffer.width,
        height: buffer.height - 1 - bottom, focused: true, into: &buffer)
    guard let report = screen.report else {
        buffer.put(tr("Reading the history…"), x: inner.x + 1, y: inner.y, style: Styles.muted, limit: inner.width - 2)
        return
    }
    let goal = screen.goalStatus(in: state.timeZone)
    let today = CalendarDate(containing: state.now, in: state.timeZone)
    let sentences =
        report.sentences(range: screen.range, units: units, timeZone: state.timeZone)
        + growthSentence(state, units: units, today: today)
        + (goal?.sentences(units: units, today: today) ?? [])
    var lines = sentences.flatMap { wrap($0, width: inner.width - 2, maximumLines: 2) }
    // The chart needs its rows of plot, a row of dates and a blank row above it; short of rows, the
    // sentences fold into a line (and the goal's into another), and the blank row goes.
    var gap = 1
    let compact = report.compactLines(units: units)
    if report.points.count > 1, inner.height - lines.count < chartRows + 2, let shortest = compact.last {
        // The longest form that fits: "tendance 78,7 kg, −0,1 kg/sem." rather than a cut "−0,1 kg/".
        let fitting = compact.first { DisplayWidth.of($0) <= inner.width - 2 } ?? shortest
        lines = [fitting] + (goal.map { [$0.compactLine(units: units)] } ?? [])
        gap = 0
    }
    var row = inner.y
    for line in lines where row < inner.y + inner.height {
        buffer.put(line, x: inner.x + 1, y: row, limit: inner.width - 2)
        row += 1
    }
    let rest = inner.y + inner.height - row - gap
    if let period = screen.table {
        let summaries = report.summaries(by: period, in: state.timeZone)
        let table = SummaryTable(summaries, of: report.series, units: units, by: period)
        var columns = table.header.count
        while columns > 2, (table.lines(columns: columns).first.map(DisplayWidth.of) ?? 0) > inner.width - 2 {
            columns -= 1
        }
        let text = table.lines(columns: columns)
        guard rest >= 2, let header = text.first else { return }
        buffer.put(header, x: inner.x + 1, y: row + gap, style: Styles.muted, limit: inner.width - 2)
        // The newest periods that fit, newest last, or older ones scrolled back to.
        let body = Array(text.dropFirst())
        let end = max(min(body.count, rest - 1), body.count - screen.tableScroll)
        for (offset, line) in body[..<end].suffix(rest - 1).enumerated() {
            buffer.put(line, x: inner.x + 1, y: row + gap + 1 + offset, limit: inner.width - 2)
        }
        return
    }
    guard report.points.count > 1, rest >= 3 else { return }
    Chart(
        series: report.series, points: report.points, units: units, timeZone: state.timeZone,
        graphics: state.graphics, dateOfBirth: state.account?.profile?.dateOfBirth, goal: goal?.goal
    ).draw(
        into: &buffer, x: inner.x, y: row + gap, width: inner.width, height: rest)
}

/// A child's or a teenager's growth a year, on the height's progress screen (from its whole history,
/// whatever the range shown).
private func growthSentence(_ state: AppState, units: UnitSystem, today: CalendarDate) -> [String] {
    guard state.progress.series == .metric(.height), let history = state.progress.history else { return [] }
    return GrowthSentences.sentence(
        heights: history.points.map(\.entry), dateOfBirth: state.account?.profile?.dateOfBirth, today: today,
        units: units
    ).map { [$0] } ?? []
}

/// The rows of plot the progress screen keeps for its chart, folding its sentences to make room.
let chartRows = 5
