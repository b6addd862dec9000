import FitIQCore
import Foundation
import Testing

@testable import FitIQTUI

/// The progress screen: a measurement's chart, trend and rate, in braille, half blocks or ASCII.
struct ProgressScreenTests {
    /// 60 daily weights falling 0.1 kg a day, the last yesterday.
    static func history() -> ProgressHistory {
        let entries = (0..<60).map { day in
            ProgressEntry(
                serverId: "w\(day)", type: Metric.weight.type, quantity: 86 - Double(day) / 10,
                loggedAt: fixedNow - Double(60 - day) * 86_400, source: .server)
        }
        var trend = Trend()
        return ProgressHistory(
            series: .metric(.weight), points: entries.map { ($0, trend.add($0.quantity, at: $0.loggedAt)) })
    }

    static func opened(graphics: ChartGraphics = .braille, width: Int = 100, height: Int = 30) -> AppState {
        var state = profileState(width: width, height: height)
        state.graphics = graphics
        state.profile.focus = .weight
        #expect(press([.character("p")], &state) == [.loadProgress(.metric(.weight))])
        _ = update(&state, .progressLoaded(history()))
        return state
    }

    @Test func pOpensTheFocusedMeasurementAndEscGoesBack() {
        var state = Self.opened()
        #expect(state.screen == .progress)
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("Weight · 4 weeks") })
        #expect(lines.contains { $0.contains("Latest 80.1 kg on") })
        #expect(lines.contains { $0.contains("kg a week over the last 4 weeks") && $0.contains("Trend ") })
        // The 4 weeks' lowest and highest: the history is cut to the range.
        #expect(lines.contains { $0.contains("Lowest 80.1 kg on") && $0.contains("highest 82.8 kg on") })
        press([.escape], &state)
        #expect(state.screen == .profile)
    }

    @Test func rangesAreCutFromWhatWasReadAndAMetricIsReadAgain() {
        var state = Self.opened()
        #expect(state.progress.report?.points.count == 28)
        // Another range: nothing is read again.
        #expect(press([.right], &state) == [])
        #expect(state.progress.range == .threeMonths)
        #expect(state.progress.report?.points.count == 60)
        #expect(screen(state).lines.contains { $0.contains("Weight · 3 months") })
        #expect(press([.right, .right], &state) == [])
        #expect(state.progress.range == .all)
        #expect(press([.tab], &state) == [.loadProgress(.metric(.bodyFat))])
        #expect(state.progress.report == nil)
        #expect(screen(state).lines.contains { $0.contains("Reading the history") })
        // A late answer for the metric left is not shown as this one's.
        _ = update(&state, .progressLoaded(Self.history()))
        #expect(state.progress.report == nil)
        // Back to the weight, read before: nothing is read again.
        #expect(press([.backTab], &state) == [])
        #expect(state.progress.report?.series == .metric(.weight))
        #expect(state.progress.report?.points.count == 60)
    }

    /// A range changed while the history is read: the answer is cut for the range on show then.
    @Test func theRangeShownIsTheOneChosenWhenTheAnswerArrives() {
        var state = profileState(width: 100, height: 30)
        state.profile.focus = .weight
        #expect(press([.character("p")], &state) == [.loadProgress(.metric(.weight))])
        press([.right, .right], &state)
        _ = update(&state, .progressLoaded(Self.history()))
        #expect(state.progress.range == .year)
        #expect(state.progress.report?.points.count == 60)
        #expect(screen(state).lines.contains { $0.contains("Weight · 1 year") })
    }

    /// A sync or a save while the chart is on show: it stays, and is read again.
    @Test func aChangeOfTheAccountKeepsTheChartAndReadsItAgain() throws {
        var state = Self.opened()
        let snapshot = try #require(state.account)
        #expect(update(&state, .accountChanged(snapshot)) == [.loadProgress(.metric(.weight))])
        #expect(state.screen == .progress)
        #expect(state.progress.report?.points.count == 28, "the old chart shows until the new one")
        // What was read before the change is read again when asked for.
        #expect(press([.right], &state) == [.loadProgress(.metric(.weight))])
    }

    @Test(arguments: [ChartGraphics.braille, .block, .ascii])
    func theTrendIsToldApartByItsSymbol(_ graphics: ChartGraphics) {
        let lines = screen(Self.opened(graphics: graphics)).lines
        let chart = lines.filter { $0.contains("│") && !$0.contains("Latest") }.joined()
        switch graphics {
        case .braille:
            #expect(chart.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) })
            #expect(chart.contains("·"))
        case .block:
            #expect(chart.contains("▀") || chart.contains("▄") || chart.contains("█"))
            #expect(!chart.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) })
        case .ascii:
            #expect(chart.contains("*") && chart.contains("."))
            let plot = lines.filter { $0.contains(" kg ┤") || $0.contains("│") }
            #expect(!plot.joined().unicodeScalars.contains { (0x2580...0x28FF).contains($0.value) })
        }
    }

    @Test func itFitsEverySizeFrom40By12() {
        for (width, height) in [(40, 12), (60, 20), (80, 24), (120, 40)] {
            var state = Self.opened(width: width, height: height)
            _ = update(&state, .input(.resize(width: width, height: height)))
            let lines = screen(state).lines
            #expect(lines.count == height)
            #expect(lines.contains { $0.contains("Weight") })
            #expect(lines.last?.contains("? help") == true)
        }
    }

    /// The rows of the chart's plot on screen: those with the axis (`│` or a tick `┤`) inside the box.
    static func plotRows(_ lines: [String]) -> Int {
        lines.filter { line in
            let inside = line.dropFirst().dropLast()
            return inside.contains("┤") || inside.contains("│")
        }.count
    }

    @Test func at40By12TheSentencesFoldSoTheChartKeepsFiveRowsOfPlot() throws {
        var state = Self.opened(graphics: .ascii, width: 40, height: 12)
        let goal = Goal(metric: .weight, target: 78, by: nil, setAt: fixedNow - 30 * 86_400, start: 83)
        _ = update(&state, .goalsLoaded(Goals([goal])))
        let lines = screen(state).lines
        #expect(Self.plotRows(lines) >= 5, "\(lines.joined(separator: "\n"))")
        // One line says the latest value, the trend and its rate, and the goal.
        #expect(lines.contains { $0.contains("80.1 kg · trend 81.0 kg, −0.7 kg/wk") }, "\(lines)")
        #expect(lines.contains { $0.contains("goal 78.0 kg: 3.0 above, 2026-12-17") }, "\(lines)")
        #expect(!lines.contains { $0.contains("Lowest") })
        // At 120×40 the sentences are whole, and the chart has more rows.
        var large = Self.opened(graphics: .ascii, width: 120, height: 40)
        _ = update(&large, .goalsLoaded(Goals([goal])))
        let big = screen(large).lines
        #expect(big.contains { $0.contains("Lowest 80.1 kg on") })
        #expect(big.contains { $0.contains("Goal 78.0 kg: the trend, ") && $0.contains("above it.") }, "\(big)")
        #expect(Self.plotRows(big) >= 20)
    }

    @Test func gSetsOrClearsTheGoalOfTheMetricShownAndTheChartDrawsIt() throws {
        var state = Self.opened(graphics: .ascii, width: 100, height: 30)
        #expect(press([.character("g")], &state) == [])
        guard case .goalPrompt(let metric, _, _)? = state.overlay else {
            Issue.record("no goal prompt: \(String(describing: state.overlay))")
            return
        }
        #expect(metric == .weight)
        #expect(screen(state).lines.contains { $0.contains("Weight goal") })
        // Out of range: the rule, and the prompt stays.
        press("700".map { .character($0) } + [.enter], &state)
        #expect(screen(state).lines.contains { $0.contains("Weight must be between 2 and 635 kg") })
        // A value and a date (the fixture's today is 2026-11-18).
        for _ in 0..<3 { press([.backspace], &state) }
        let effects = press("78 2027-03-01".map { .character($0) } + [.enter], &state)
        #expect(effects == [.setGoal(.weight, target: 78, by: CalendarDate(parsing: "2027-03-01"))])
        #expect(state.overlay == nil)
        // The goal read back: a line labelled goal, the sentences, and the plan from the day it was set.
        let goal = Goal(
            metric: .weight, target: 78, by: CalendarDate(parsing: "2027-03-01"), setAt: fixedNow - 20 * 86_400,
            start: 82.5)
        _ = update(&state, .goalsLoaded(Goals([goal])))
        let lines = screen(state).lines
        #expect(
            lines.contains { $0.contains("78.0 kg ┤====") && $0.contains("= goal ") },
            "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains(":") && $0.contains("┤") || $0.contains(":") && $0.contains("│") })
        #expect(lines.contains { $0.contains("Goal 78.0 kg by 2027-03-01: the trend, ") })
        #expect(lines.contains { $0.contains("the plan for 2027-03-01") }, "\(lines.joined(separator: "\n"))")
        // g again: the goal there is, to change; emptied, it is cleared.
        press([.character("g")], &state)
        guard case .goalPrompt(_, let value, _)? = state.overlay else { return }
        #expect(value.text == "78.0 2027-03-01")
        #expect(press([.control("u"), .enter], &state) == [.clearGoal(.weight)])
        // Height and BMI take no goal: g does nothing there.
        press([.tab, .tab], &state)
        #expect(state.progress.series == .metric(.height))
        #expect(press([.character("g")], &state) == [] && state.overlay == nil)
    }

    /// At 40×12 the prompt, its field and the rule all show.
    @Test func theGoalPromptFitsASmallScreenWithItsRule() {
        var state = Self.opened(graphics: .ascii, width: 40, height: 12)
        press([.character("g")] + "700".map { .character($0) } + [.enter], &state)
        let lines = screen(state).lines
        let field = lines.firstIndex { $0.contains("› 700") }
        let rule = lines.firstIndex { $0.contains("Weight must be between") }
        #expect(field != nil && rule != nil && field! < rule!, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("Target (and a date, YYYY-MM-DD):") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func tShowsTheTableByWeekThenByMonthThenTheChart() throws {
        var state = Self.opened(graphics: .ascii, width: 100, height: 30)
        press([.character("t")], &state)
        var lines = screen(state).lines
        #expect(lines.contains { $0.contains("Weight · 4 weeks · by week") })
        #expect(lines.contains { $0.contains("week of") && $0.contains("mean kg") && $0.contains("change") })
        // The 28 readings by Monday week, each row's count beside it; the newest week last.
        let rows = lines.filter { $0.range(of: #"│ 20\d\d-\d\d-\d\d "#, options: .regularExpression) != nil }
        let counts = rows.compactMap { row in
            row.split(separator: " ").filter { !$0.isEmpty }.dropFirst(5).first.flatMap { Int($0) }
        }
        #expect(counts.reduce(0, +) == 28, "\(rows)")
        press([.character("t")], &state)
        lines = screen(state).lines
        #expect(
            lines.contains { $0.contains("by month") }
                && lines.contains { $0.contains("month") && $0.contains("mean kg") })
        press([.character("t")], &state)
        #expect(!screen(state).lines.contains { $0.contains("by month") || $0.contains("by week") })
        #expect(Self.plotRows(screen(state).lines) >= 5)
    }

    @Test func theTableScrollsBackWithTheArrowsAndTheWheel() throws {
        // Nine weeks of readings, at a height that shows a few weeks.
        var state = Self.opened(graphics: .ascii, width: 80, height: 16)
        press([.character("h"), .character("t")], &state)  // the previous range: all
        #expect(state.progress.range == .all)
        func weeks() -> [String] {
            screen(state).lines.compactMap { line in
                line.firstMatch(of: #/│ (20\d\d-\d\d-\d\d) /#).map { String($0.1) }
            }
        }
        let newest = weeks()
        try #require(newest.count >= 2 && newest.count < 9, "\(screen(state).lines)")
        press([.up], &state)
        #expect(weeks().last ?? "" < newest.last ?? "", "one week back")
        _ = update(&state, .input(.mouse(MouseReport(.wheelUp, x: 5, y: 5))))
        let older = weeks()
        #expect(older.first ?? "" < newest.first ?? "")
        #expect(older.count == newest.count)
        for _ in 0..<20 { _ = update(&state, .input(.mouse(MouseReport(.wheelUp, x: 5, y: 5)))) }
        let oldest = weeks()
        #expect(oldest.count == newest.count, "scrolled past the oldest: the oldest that fit")
        press([.down], &state)
        _ = update(&state, .input(.mouse(MouseReport(.wheelDown, x: 5, y: 5))))
        #expect(weeks().first ?? "" >= oldest.first ?? "")
        press([.character("t"), .character("t")], &state)  // the month table starts at the newest again
        #expect(state.progress.tableScroll == 0)
    }

    /// One of the issue's rows: readings (days before now, value), the range, the sentence expected.
    struct TrendRow: Sendable {
        let metric: Metric
        let readings: [(daysAgo: Double, value: Double)]
        let range: ProgressRange
        let sentence: String
    }

    static let trendRows: [TrendRow] = {
        func reading(_ daysAgo: Int, _ value: Double) -> (daysAgo: Double, value: Double) { (Double(daysAgo), value) }
        let monthly = (0...12).map { month in reading(30 * (12 - month), 90 - Double(month)) }
        let daily = (0..<60).map { day in reading(117 - day, 80) }
        let after = (0..<3).map { day in reading(2 - day, 85) }
        let fat = (0...12).map { month in reading(30 * (12 - month), 24 - Double(month) / 4) }
        return [
            TrendRow(
                metric: .weight, readings: monthly, range: .all,
                sentence: "Trend 78.0 kg, −0.2 kg a week over the whole history."),
            TrendRow(metric: .weight, readings: daily + after, range: .all, sentence: "Trend 85.0 kg, "),
            TrendRow(metric: .bodyFat, readings: fat, range: .threeMonths, sentence: "Trend 21.0 %, "),
        ]
    }()

    /// The issue's three rows on the progress screen: monthly weigh-ins, a long gap, monthly body fat.
    @Test(arguments: 0..<3)
    func theTrendShownIsTheScalesNotAMonthBehind(row: Int) {
        let (metric, readings, range, sentence) = (
            Self.trendRows[row].metric, Self.trendRows[row].readings, Self.trendRows[row].range,
            Self.trendRows[row].sentence
        )
        let name = "row \(row + 1)"
        var state = profileState(width: 100, height: 30)
        state.profile.focus = metric == .weight ? .weight : .bodyFat
        state.progress.range = range
        press([.character("p")], &state)
        let entries = readings.map { reading in
            ProgressEntry(
                type: metric.type, quantity: reading.value, loggedAt: fixedNow - reading.daysAgo * 86_400 - 3_600,
                source: .server)
        }
        _ = update(&state, .progressLoaded(ProgressHistory(series: .metric(metric), points: Trend.line(entries))))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains(sentence) }, "\(name): \(lines.joined(separator: "\n"))")
    }

    @Test func theSymbolsFollowTheTerminalAndTheLocale() {
        #expect(ChartGraphics.choose(environment: ["TERM": "xterm-256color", "LANG": "en_US.UTF-8"]) == .braille)
        #expect(ChartGraphics.choose(environment: ["TERM": "linux", "LANG": "en_US.UTF-8"]) == .block)
        #expect(ChartGraphics.choose(environment: ["TERM": "xterm", "LANG": "C"]) == .block)
        #expect(ChartGraphics.choose(environment: ["TERM": "linux"]) == .ascii)
        #expect(ChartGraphics.choose(environment: ["LC_ALL": "de_DE.utf8", "LANG": "C"]) == .braille)
        #expect(ChartGraphics.choose(environment: ["FITIQ_GRAPHICS": "ascii", "LANG": "en_US.UTF-8"]) == .ascii)
    }

    @Test func bmiShowsTheWHOBandsFromTheTwentiethBirthday() {
        var state = profileState(width: 100, height: 30)
        state.graphics = .ascii
        state.profile.focus = .bmi
        state.progress.range = .all
        #expect(press([.character("p")], &state) == [.loadProgress(.bmi)])
        // BMI from 19 to 31 over the last 60 days; the fixture's date of birth is 1983 (an adult).
        let entries = (0..<60).map { day in
            ProgressEntry(
                type: Metric.weight.type, quantity: 19 + Double(day) / 5,
                loggedAt: fixedNow - Double(60 - day) * 86_400,
                source: .server)
        }
        var trend = Trend()
        let points = entries.map { ($0, trend.add($0.quantity, at: $0.loggedAt)) }
        _ = update(&state, .progressLoaded(ProgressHistory(series: .bmi, points: points)))
        let lines = screen(state).lines
        #expect(lines.contains { $0.contains("BMI · all") })
        for edge in ["18.5", "25.0", "30.0"] where edge != "18.5" {
            #expect(lines.contains { $0.contains("--") && $0.contains(edge) }, "\(edge)")
        }
        #expect(lines.contains { $0.contains("Latest 30.8 on") })
    }

    /// Steps as the core reads them: a point a day at noon, its trend the 7-day average; 2,000 and
    /// 8,000 in turn over the 28 days before today.
    static func stepDays() -> ProgressHistory {
        let today = CalendarDate(containing: fixedNow, in: .utc)
        var days = DayValues(metric: .steps)
        for offset in 1...28 {
            days.add(
                ProgressEntry(
                    type: Metric.steps.type, quantity: offset.isMultiple(of: 2) ? 8_000 : 2_000,
                    loggedAt: today.adding(days: -offset).instant(atHour: 9, in: .utc), source: .manual),
                in: .utc)
        }
        let points = days.byDay.sorted { $0.key < $1.key }.map { day, value in
            (
                entry: ProgressEntry(
                    type: Metric.steps.type, quantity: value, loggedAt: day.instant(atHour: 12, in: .utc),
                    source: .server),
                trend: days.average(days: 7, endingOn: day) ?? value
            )
        }
        return ProgressHistory(series: .metric(.steps), points: points)
    }

    /// A day's amount is a bar a day from zero: every day reaches the axis, only the 8,000 days the
    /// top, and the legend says days, not readings.
    @Test func aDaysAmountIsABarADayFromZero() throws {
        var state = profileState(width: 100, height: 30)
        state.graphics = .ascii
        state.screen = .progress
        state.progress.series = .metric(.steps)
        _ = update(&state, .progressLoaded(Self.stepDays()))
        let lines = screen(state).lines
        // The plot's rows: those with the axis inside the box, cut after it.
        let plot = lines.map { String($0.dropFirst().dropLast()) }.filter { $0.contains("│") || $0.contains("┤") }
        let rows = plot.map { line in
            String(line.split(omittingEmptySubsequences: false) { $0 == "│" || $0 == "┤" }.last ?? "")
        }
        let bottom = try #require(rows.last), top = try #require(rows.first)
        let bars = { (row: String) in row.filter { $0 == "#" || $0 == "*" }.count }
        // Zero is on the axis, and each of the 28 days reaches it.
        #expect(plot.last?.contains(" 0 ") == true || plot.last?.contains("0 steps") == true, "\(plot)")
        #expect(bars(bottom) >= 28, "\(bottom)")
        #expect(bars(top) > 0 && bars(top) < bars(bottom), "\(top)")
        #expect(!plot.joined().contains("."))
        #expect(lines.contains { $0.contains("# days") && $0.contains("* trend") })
    }
}
