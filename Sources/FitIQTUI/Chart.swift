import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one chart of the editor, on the progress screen and in the profile's history panel: readings as
/// dots and their trend as a line, spaced by time, in braille, half blocks or ASCII; a day's amount or
/// a night as a bar a day from zero, under its 7-day average. The trend is told apart by its symbol as
/// well as its colour.
///
/// The vertical range spans at least the series' ``MeasurementSeries/minimumChartSpan`` (2 cm, 1 kg,
/// 1 %), centred on the values, so a few millimetres of noise never fill the chart.
struct Chart {
    let series: MeasurementSeries
    /// The readings, oldest first, each with the trend after it.
    let points: [(entry: ProgressEntry, trend: Double)]
    let units: UnitSystem
    let timeZone: LocalZone
    let graphics: ChartGraphics
    /// For BMI: the WHO adult bands are drawn from the 20th birthday on.
    var dateOfBirth: CalendarDate?
    /// The goal of the metric shown: its target as a line, and with a date the plan toward it.
    var goal: Goal?

    /// The fewest columns and rows of plot a chart is drawn in; `draw` draws nothing below them.
    static let minimumPlotWidth = 8
    static let minimumPlotRows = 2

    /// Amounts and nights are drawn as bars from zero; readings as dots.
    var drawsBars: Bool { series.metric.map { $0.kind != .reading } ?? false }

    /// Sub-cell dots per cell, across and down.
    private var resolution: (x: Int, y: Int) {
        switch graphics {
        case .braille: (2, 4)
        case .block: (1, 2)
        case .ascii: (1, 1)
        }
    }

    /// The values' lowest and highest (the goal's target and plan included), widened to the series'
    /// minimum span around their middle.
    var verticalRange: (low: Double, high: Double)? {
        let values = (points.flatMap { [$0.entry.quantity, $0.trend] } + goalValues).filter(\.isFinite)
        guard var low = values.min(), var high = values.max() else { return nil }
        let minimum = series.minimumChartSpan
        if drawsBars {
            // A bar's length is its value: the axis starts at zero.
            (low, high) = (min(low, 0), max(high, min(low, 0) + minimum))
        } else if high - low < minimum {
            let middle = low / 2 + high / 2
            (low, high) = (middle - minimum / 2, middle + minimum / 2)
        }
        return (low, high)
    }

    /// The goal's target, and its plan's values at the chart's ends.
    private var goalValues: [Double] {
        guard let goal, let first = points.first?.entry.loggedAt, let last = points.last?.entry.loggedAt else {
            return []
        }
        return [goal.target] + [first, last].compactMap { goal.plan(at: $0, in: timeZone) }
    }

    /// Round values for the vertical axis in the user's units (steps of 1, 2 or 5 times a power of
    /// ten), no more than `most` + 1, within `low`...`high` (in the series' unit); each labelled as
    /// the series shows values (`75.0 kg`, `5 ft 9 in`).
    func ticks(low: Double, high: Double, most: Int) -> [(value: Double, label: String)] {
        let scale = series.value(1, in: units).value / max(series.value(0, in: units).value + 1, 1e-9)
        let (shownLow, shownHigh) = (low * scale, high * scale)
        let spread = shownHigh - shownLow
        guard spread > 0, most >= 1, scale.isFinite, scale > 0 else { return [] }
        let rough = spread / Double(most)
        // Values come from the server and the cache unchecked: no ticks for a span no Double can step.
        guard rough.isFinite, rough > 1e-6, rough < 1e12 else { return [] }
        var power = 1.0
        while power * 10 <= rough { power *= 10 }
        while power > rough { power /= 10 }
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? power * 10
        var ticks: [(Double, String)] = []
        var value = (shownLow / step).rounded(.up) * step
        while value <= shownHigh + step * 1e-9, ticks.count < most + 1 {
            ticks.append((value / scale, series.format(value / scale, unitSystem: units)))
            value += step
        }
        return ticks
    }

    /// Draws into the rectangle at (`x`, `y`); returns `false`, drawing nothing, when it is too small
    /// for a plot of ``minimumPlotWidth`` × ``minimumPlotRows`` with its labels, or there is nothing to draw.
    @discardableResult
    func draw(into buffer: inout CellBuffer, x: Int, y: Int, width: Int, height: Int) -> Bool {
        guard let (low, high) = verticalRange, let first = points.first, let last = points.last else { return false }
        let ticks = ticks(low: low, high: high, most: max(1, (height - 1) / 2))
        let labelWidth = ticks.map { DisplayWidth.of($0.label) }.max() ?? 0
        let plot = (x: x + labelWidth + 2, width: width - labelWidth - 3, rows: height - 1)
        guard plot.width >= Self.minimumPlotWidth, plot.rows >= Self.minimumPlotRows else { return false }
        for row in 0..<plot.rows { buffer.put("│", x: plot.x - 1, y: y + row, style: Styles.border) }
        for tick in ticks {
            let down = (high - tick.value) / (high - low) * Double(plot.rows - 1)
            guard down.isFinite, down > -0.5, down < Double(plot.rows) - 0.5 else { continue }
            let row = Int(down.rounded())
            buffer.put(tick.label, x: x + labelWidth - DisplayWidth.of(tick.label), y: y + row, style: Styles.muted)
            buffer.put("┤", x: plot.x - 1, y: y + row, style: Styles.border)
        }

        let (dotsX, dotsY) = resolution
        let columns = plot.width * dotsX
        let rows = plot.rows * dotsY
        let start = first.entry.loggedAt
        let span = max(1, last.entry.loggedAt.timeIntervalSince(start))
        let spread = high - low
        func dot(_ at: Date, _ value: Double) -> (Int, Int) {
            let across = at.timeIntervalSince(start) / span * Double(columns - 1)
            // Values come from the server and the cache unchecked: a span too wide for a Double gives
            // no fraction, and such a value is drawn at an edge rather than trapped on.
            let down = (high - value) / spread * Double(rows - 1)
            let column = across.isFinite ? Int(across.rounded()) : 0
            let row = down.isFinite ? Int(max(-1, min(Double(rows), down)).rounded()) : rows - 1
            return (min(columns - 1, max(0, column)), min(rows - 1, max(0, row)))
        }
        // Which dots are set, one flag per dot of the plot (a few thousand): looked up eight times a cell.
        var readings = [Bool](repeating: false, count: columns * rows)
        var trend = [Bool](repeating: false, count: columns * rows)
        if drawsBars {
            // A column of dots a bar, as tall as the average day of those falling in that column.
            var sums = [(total: Double, count: Int)](repeating: (0, 0), count: columns)
            for point in points where point.entry.quantity.isFinite {
                let column = dot(point.entry.loggedAt, point.entry.quantity).0
                sums[column] = (sums[column].total + point.entry.quantity, sums[column].count + 1)
            }
            // Where a day is three dots wide or more, its bar is as wide as the day less a dot's gap.
            let perDay = Double(columns - 1) * 86_400 / span
            let half = perDay >= 3 ? Int((perDay - 2) / 2) : 0
            let base = dot(start, max(low, 0)).1
            for (column, sum) in sums.enumerated() where sum.count > 0 {
                let top = dot(start, sum.total / Double(sum.count)).1
                for across in max(0, column - half)...min(columns - 1, column + half) {
                    for row in min(top, base)...max(top, base) { readings[row * columns + across] = true }
                }
            }
        } else {
            for point in points where point.entry.quantity.isFinite {
                let (column, row) = dot(point.entry.loggedAt, point.entry.quantity)
                readings[row * columns + column] = true
            }
        }
        var previous: (Int, Int)?
        for point in points where point.trend.isFinite {
            let current = dot(point.entry.loggedAt, point.trend)
            for (column, row) in Self.line(from: previous ?? current, to: current) {
                trend[row * columns + column] = true
            }
            previous = current
        }
        if let goal {
            drawGoal(goal, into: &buffer, plot: (x: plot.x, y: y, width: plot.width), dot: dot)
        }
        if series == .bmi {
            drawAdultBands(into: &buffer, plot: (x: plot.x, y: y, width: plot.width), low: low, high: high) {
                dot($0, $1)
            }
        }
        for cellRow in 0..<plot.rows {
            for cellColumn in 0..<plot.width {
                var trendBits = 0
                var readingBits = 0
                for dy in 0..<dotsY {
                    for dx in 0..<dotsX {
                        let index = (cellRow * dotsY + dy) * columns + cellColumn * dotsX + dx
                        if trend[index] { trendBits |= Self.bit(dx, dy, graphics) }
                        if readings[index] { readingBits |= Self.bit(dx, dy, graphics) }
                    }
                }
                let glyph: String
                let style: CellStyle
                if trendBits != 0 {
                    // In braille a bar keeps its dots where the trend crosses it.
                    let bits = drawsBars && graphics == .braille ? trendBits | readingBits : trendBits
                    glyph = Self.trendGlyph(bits, graphics)
                    style = Styles.accent
                } else if drawsBars, readingBits != 0 {
                    glyph = Self.barGlyph(readingBits, graphics)
                    style = .plain
                } else if readingBits != 0 {
                    glyph = graphics == .ascii ? "." : "·"
                    style = .plain
                } else {
                    continue
                }
                buffer.put(glyph, x: plot.x + cellColumn, y: y + cellRow, style: style)
            }
        }
        drawDates(into: &buffer, from: start, to: last.entry.loggedAt, x: plot.x, y: y + plot.rows, width: plot.width)
        return true
    }

    /// The goal's target as a dashed line labelled `goal`, and with a date the plan: a dotted line from
    /// the value when the goal was set to the target on its date, where it falls inside the chart.
    private func drawGoal(
        _ goal: Goal, into buffer: inout CellBuffer, plot: (x: Int, y: Int, width: Int),
        dot: (Date, Double) -> (Int, Int)
    ) {
        guard let start = points.first?.entry.loggedAt, let end = points.last?.entry.loggedAt else { return }
        let dotsY = resolution.y
        let targetRow = dot(start, goal.target).1 / dotsY
        for column in 0..<plot.width {
            buffer.put(graphics == .ascii ? "=" : "╌", x: plot.x + column, y: plot.y + targetRow, style: Styles.accent)
        }
        let goalLabel = " " + tr("goal") + " "
        buffer.put(
            goalLabel, x: plot.x + plot.width - DisplayWidth.of(goalLabel), y: plot.y + targetRow, style: Styles.accent)
        guard goal.by != nil, goal.start != nil else { return }
        let from = max(start, goal.setAt)
        guard from <= end else { return }
        for column in 0..<plot.width {
            let at = start.addingTimeInterval(
                end.timeIntervalSince(start) * Double(column) / Double(max(1, plot.width - 1)))
            guard at >= from, let value = goal.plan(at: at, in: timeZone) else { continue }
            let row = dot(at, value).1 / dotsY
            if row != targetRow {
                buffer.put(graphics == .ascii ? ":" : "┈", x: plot.x + column, y: plot.y + row, style: Styles.muted)
            }
        }
    }

    /// The WHO adult bands' edges as reference lines, from the day the person turned 20 (all of it when
    /// the date of birth is unknown): 18.5, 25 and 30, each labelled where it starts.
    private func drawAdultBands(
        into buffer: inout CellBuffer, plot: (x: Int, y: Int, width: Int), low: Double, high: Double,
        dot: (Date, Double) -> (Int, Int)
    ) {
        guard let start = points.first?.entry.loggedAt else { return }
        let (dotsX, dotsY) = resolution
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
                    graphics == .ascii ? "-" : "┄", x: plot.x + column, y: plot.y + row / dotsY, style: Styles.border)
            }
            // Labelled where the line starts (a rising series leaves that end free more often), with the
            // category above the edge.
            let category = BodyMassIndex.Category(edge).shown
            let label = " " + DecimalText.shown(edge, places: 1) + " " + category + " "
            buffer.put(label, x: plot.x + from, y: plot.y + row / dotsY, style: Styles.muted, limit: plot.width - from)
        }
    }

    /// The first and last days under the plot (full dates, else months), the legend in the middle when
    /// there is room, and in the room left the weeks (Mondays) or months (years for long spans).
    private func drawDates(into buffer: inout CellBuffer, from start: Date, to end: Date, x: Int, y: Int, width: Int) {
        let dates = HistoryChart.dateLabels(from: start, to: end, timeZone: timeZone, width: width)
        var taken: [(span: Range<Int>, gap: Int)] = []
        // Each text where it keeps `gap` blank columns from every one placed before (the greater gap of
        // the two): the legend keeps three, so that its last word never reads on into a month's name
        // ("tendance août").
        func place(_ text: String, at column: Int, gap: Int = 1) {
            let span = column..<(column + DisplayWidth.of(text))
            guard column >= 0, span.upperBound <= width,
                !taken.contains(where: { other in
                    let apart = max(gap, other.gap)
                    return other.span.lowerBound - apart < span.upperBound
                        && span.lowerBound < other.span.upperBound + apart
                })
            else { return }
            buffer.put(text, x: x + column, y: y, style: Styles.muted)
            taken.append((span, gap))
        }
        if let first = dates.first { place(first, at: 0) }
        if dates.count > 1, let last = dates.last { place(last, at: width - DisplayWidth.of(last)) }
        let points = drawsBars ? tr("days") : tr("readings")
        let legend =
            switch graphics {
            case .braille: (drawsBars ? "⣿ " : "· ") + points + "  ⠉ " + tr("trend")
            case .block: (drawsBars ? "█ " : "· ") + points + "  ▀ " + tr("trend")
            case .ascii: (drawsBars ? "# " : ". ") + points + "  * " + tr("trend")
            }
        place(legend, at: (width - DisplayWidth.of(legend)) / 2, gap: 3)
        let seconds = end.timeIntervalSince(start)
        for mark in Self.axisMarks(from: start, to: end, timeZone: timeZone) where seconds > 0 {
            place(mark.label, at: Int((mark.at.timeIntervalSince(start) / seconds * Double(width - 1)).rounded()))
        }
    }

    /// Where the horizontal axis is marked between `start` and `end`: Mondays (`Nov 23`) over up to ten
    /// weeks, the 1st of each month (`Mar`, the year at January) over up to three years, else each year.
    static func axisMarks(from start: Date, to end: Date, timeZone: LocalZone) -> [(at: Date, label: String)] {
        let first = CalendarDate(containing: start, in: timeZone)
        let last = CalendarDate(containing: end, in: timeZone)
        let days = last.daysSince1970 - first.daysSince1970
        var marks: [(Date, String)] = []
        if days <= 70 {
            var monday = SummaryPeriod.week.start(of: first).adding(days: 7)
            while monday <= last {
                marks.append(
                    (monday.instant(atHour: 0, in: timeZone), HistoryChart.monthDay(monday)))
                monday = monday.adding(days: 7)
            }
        } else if days <= 3 * 366 {
            var month = SummaryPeriod.month.start(of: first)
            while true {
                month = SummaryPeriod.month.end(from: month).adding(days: 1)
                guard month <= last else { break }
                marks.append(
                    (
                        month.instant(atHour: 0, in: timeZone),
                        month.month == 1 ? "\(month.year)" : monthAbbreviation(month.month)
                    ))
            }
        } else {
            for year in (first.year + 1)...max(first.year + 1, last.year) {
                guard let day = CalendarDate(year: year, month: 1, day: 1), day <= last else { continue }
                marks.append((day.instant(atHour: 0, in: timeZone), "\(year)"))
            }
        }
        return marks
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

    /// A cell of a bar: its dots in braille, a block or its lower half, `#` in ASCII.
    static func barGlyph(_ bits: Int, _ graphics: ChartGraphics) -> String {
        switch graphics {
        case .braille: String(Character(Unicode.Scalar(UInt32(0x2800 + bits)) ?? "⣿"))
        case .block: bits == 2 ? "▄" : bits == 1 ? "▀" : "█"
        case .ascii: "#"
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
