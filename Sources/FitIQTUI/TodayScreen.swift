import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The Today screen (`t`, `:today`): every metric with data, its day, 7-day average, goal and last 30
/// days; `l` logs the metric chosen, `h` lists its entries.
public struct TodayScreen: Sendable, Equatable {
    /// The metrics as last read (``Account/today()``); `nil` while the first read runs.
    public var metrics: [MetricToday]?
    /// The row chosen (↑↓), for `l`, `p` and `h`.
    public var selection = 0
    /// The entries of a metric, listed in place of the rows (`h`, `:history water`), else `nil`.
    public var history: EntryChoice?

    public init() {}

    /// The metric of the row chosen, or steps when there is no row.
    var chosen: Metric {
        guard let metrics, metrics.indices.contains(selection) else { return .steps }
        return metrics[selection].metric
    }
}

/// A metric's entries being listed, and the one chosen (newest first).
public struct EntryChoice: Sendable, Equatable {
    public var metric: Metric
    public var selection = 0
    /// The entries read for the list (``Effect/loadEntries(_:)``); `nil` until the first read ends.
    public var loaded: LatestEntries?

    public init(_ metric: Metric) {
        self.metric = metric
    }

    /// The entries listed, newest first: those read for the list, or until then the account's latest
    /// (a summary keeps a few of each metric), so the list never shows empty while it is read.
    func entries(_ state: AppState) -> [ProgressEntry] {
        loaded?.entries ?? state.account?.history(of: metric).entries ?? []
    }
}

/// Opens `metric`'s list on the Today screen and asks for its entries.
func openEntries(_ metric: Metric, _ state: inout AppState) -> [Effect] {
    state.today.history = EntryChoice(metric)
    return [.loadEntries(metric)]
}

/// What the Today screen's keys do (``KeyTable/today``, ``KeyTable/todayHistory``).
func performOnToday(_ action: KeyAction, _ state: inout AppState) -> [Effect] {
    if var history = state.today.history {
        switch action {
        case .leaveList:
            state.today.history = nil
        case .undo:
            return [.undo]
        default:
            // The list may have changed under it (a removal, a sync): the choice stays in range.
            let entries = history.entries(state)
            history.selection = max(0, min(history.selection, entries.count - 1))
            if action == .selectClicked, case .entry(let index)? = state.clicked { history.selection = index }
            history.selection = performOnEntries(
                action, on: entries, of: history.metric, chosen: history.selection, &state)
            state.today.history = history
        }
        return []
    }
    let count = state.today.metrics?.count ?? 0
    switch action {
    case .leaveToday:
        state.screen = .profile
    case .todayDown:
        state.today.selection = min(max(0, count - 1), state.today.selection + 1)
    case .todayUp:
        state.today.selection = max(0, state.today.selection - 1)
    case .logChosen:
        // The command line, ready for the value: `:log water ` (Enter logs it, Esc leaves it).
        state.commandLine = TextField("log \(state.today.chosen.id) ", limit: 200)
    case .openChosenProgress:
        return showProgress(.metric(state.today.chosen), range: state.progress.range, table: nil, &state)
    case .openChosenHistory:
        return openEntries(state.today.chosen, &state)
    default:
        break
    }
    return []
}

/// Opens the Today screen and asks for its data (what was read before shows meanwhile).
func openToday(_ state: inout AppState) -> [Effect] {
    state.screen = .today
    state.today.history = nil
    return [.loadToday]
}

/// The Today screen: a row per metric (its name, today's value, the 7-day average, the sparkline of
/// the last 30 days, or of as many as fit), its goal under it when one is set; narrow terminals drop
/// the average, then the sparkline, and keep the name and the value.
func renderToday(_ state: AppState, into buffer: inout CellBuffer, bottom: Int) {
    renderTitle(state, into: &buffer)
    if let history = state.today.history {
        return renderEntries(
            state, history, x: 0, y: 1, width: buffer.width, height: buffer.height - 1 - bottom, into: &buffer)
    }
    let today = CalendarDate(containing: state.now, in: state.timeZone)
    let inner = drawBox(
        tr("Today, {day}", ["day": today.description]), x: 0, y: 1, width: buffer.width,
        height: buffer.height - 1 - bottom, focused: true, into: &buffer)
    let width = inner.width - 2
    guard let metrics = state.today.metrics else {
        buffer.put(tr("Reading the history…"), x: inner.x + 1, y: inner.y, style: Styles.muted, limit: width)
        return
    }
    guard !metrics.isEmpty else {
        let lines = wrap(
            tr("Nothing logged yet: l logs a metric (water, steps, sleep…)."), width: width, maximumLines: 3)
        for (offset, line) in lines.enumerated() {
            buffer.put(line, x: inner.x + 1, y: inner.y + offset, style: Styles.muted, limit: width)
        }
        return
    }
    let units = ProfileValues(state).unitSystem
    let names = metrics.map { $0.metric.field.label }
    let values = metrics.map { $0.valueText(units: units, today: today) }
    let averages = metrics.map { $0.averageText(units: units) }
    let nameWidth = min(names.map(DisplayWidth.of).max() ?? 0, max(6, width / 3))
    let valueWidth = values.map(DisplayWidth.of).max() ?? 0
    let averageWidth = averages.map(DisplayWidth.of).max() ?? 0
    // What fits: the average, and the sparkline, each with two spaces before it.
    let base = nameWidth + 2 + valueWidth
    let showsAverage = base + 2 + averageWidth <= width
    let sparkAt = (showsAverage ? base + 2 + averageWidth : base) + 2
    // The last 30 days, or as many of the last ones as fit (a week at least).
    let spark = min(MetricToday.sparklineDays, width - sparkAt)
    let showsSpark = spark >= 7
    let rows = inner.height
    // Two rows a metric with a goal when there is room for every metric so, else one.
    let goalLines = metrics.filter { $0.goal != nil }.count
    let withGoals = metrics.count + goalLines <= rows
    // The chosen row stays in view.
    let selection = min(state.today.selection, metrics.count - 1)
    var first = 0
    func height(_ index: Int) -> Int { withGoals && metrics[index].goal != nil ? 2 : 1 }
    while (first...selection).map(height).reduce(0, +) > rows { first += 1 }
    var row = inner.y
    for index in first..<metrics.count {
        guard row + height(index) <= inner.y + rows else { break }
        let chosen = index == selection
        let style = chosen ? Styles.focused : CellStyle.plain
        if chosen { buffer.fill(x: inner.x, y: row, width: inner.width, height: 1, style: style) }
        let x = inner.x + 1
        buffer.put(chosen ? "›" : " ", x: inner.x, y: row, style: style, limit: 1)
        buffer.put(fitted(names[index], width: nameWidth), x: x, y: row, style: style, limit: nameWidth)
        buffer.put(values[index], x: x + nameWidth + 2, y: row, style: style, limit: max(0, width - nameWidth - 2))
        if showsAverage {
            buffer.put(
                averages[index], x: x + base + 2, y: row, style: chosen ? style : Styles.muted, limit: averageWidth)
        }
        if showsSpark {
            buffer.put(
                Sparkline.text(Array(metrics[index].days.suffix(spark)), graphics: state.graphics), x: x + sparkAt,
                y: row,
                style: chosen ? style : Styles.accent, limit: spark)
        }
        row += 1
        if withGoals, metrics[index].goal != nil {
            let full = metrics[index].goalText(units: units)
            let goal =
                DisplayWidth.of(full) <= width - nameWidth - 2 ? full : metrics[index].shortGoalText(units: units)
            let met = metrics[index].dailyGoal?.met == true
            buffer.put(
                goal, x: x + nameWidth + 2, y: row, style: met ? Styles.good : Styles.muted,
                limit: max(0, width - nameWidth - 2))
            row += 1
        }
    }
}

/// A metric's entries, newest first, as `fitiq-tui history METRIC` prints them (``HistoryLines``): a day's
/// amount or a night under each day's total. The entry chosen is marked and kept in view.
private func renderEntries(
    _ state: AppState, _ history: EntryChoice, x: Int, y: Int, width: Int, height: Int, into buffer: inout CellBuffer
) {
    let metric = history.metric
    let title = titleCased(tr("{measurement} history", ["measurement": metric.complement]))
    let inner = drawBox(
        title + " " + tr("(↑↓ choose, d remove, e correct)"), x: x, y: y, width: width, height: height, focused: true,
        into: &buffer)
    let entries = history.entries(state)
    guard !entries.isEmpty else {
        buffer.put(metric.noEntriesYet, x: inner.x + 1, y: inner.y, style: Styles.muted, limit: inner.width - 2)
        return
    }
    var lines = HistoryLines.of(
        entries, metric: metric, units: ProfileValues(state).unitSystem, timeZone: state.timeZone)
    let listed = lines.count
    // Under the last entry, the entries not read and how to list them all.
    if let older = history.loaded?.older, older > 0 {
        let text = trn(
            "{count} older entry is not listed: fitiq-tui history {metric} lists it.",
            "{count} older entries are not listed: fitiq-tui history {metric} lists them.", count: older,
            ["metric": metric.id])
        lines.append(HistoryLine(text: text, entry: nil))
    }
    let selection = min(history.selection, entries.count - 1)
    let chosenRow = lines.firstIndex { $0.entry == selection } ?? 0
    // The chosen entry stays in view: the list scrolls past the first rows if need be.
    let first = max(0, chosenRow - inner.height + 1)
    for (row, line) in lines.dropFirst(first).prefix(inner.height).enumerated() {
        let chosen = line.entry == selection
        var style = line.entry == nil ? Styles.accent : CellStyle.plain
        if first + row >= listed { style = Styles.muted }
        if chosen { style = Styles.focused }
        if let entry = line.entry { buffer.mark(.entry(entry), x: inner.x, y: inner.y + row, width: inner.width) }
        if chosen { buffer.fill(x: inner.x, y: inner.y + row, width: inner.width, height: 1, style: style) }
        buffer.put(chosen ? "›" : " ", x: inner.x, y: inner.y + row, style: style, limit: 1)
        buffer.put(line.text, x: inner.x + 1, y: inner.y + row, style: style, limit: inner.width - 2)
    }
}
