import FitIQCore
import FitIQLocalization
import Foundation
import Testing

@testable import FitIQTUI

/// The Today screen on its rendered buffer: every metric with data, its day, average, goal and
/// sparkline at 80×24; the name and the value at 40×12; in German, Schritte.
struct TodayScreenTests {
    static let today = CalendarDate(containing: fixedNow, in: .utc)

    /// Steps with a goal of 10,000 (met two days running before today), water, sleep and a weight
    /// from two days ago.
    static func metrics() -> [MetricToday] {
        func values(_ metric: Metric, _ days: [(Int, Double)]) -> DayValues {
            DayValues(
                metric: metric,
                entries: days.map { offset, value in
                    ProgressEntry(
                        type: metric.type, quantity: value,
                        loggedAt: today.adding(days: -offset).instant(atHour: 9, in: .utc), source: .manual)
                }, in: .utc)
        }
        let goal = Goal(
            metric: .steps, target: 10_000, by: nil, setAt: fixedNow.addingTimeInterval(-30 * 86_400), start: nil)
        return [
            MetricToday(values: values(.weight, [(2, 80)]), goal: nil, today: today),
            MetricToday(
                values: values(.steps, [(0, 4_000), (1, 11_000), (2, 12_000), (3, 2_000)]), goal: goal, today: today),
            MetricToday(values: values(.water, [(0, 0.25), (0, 0.5), (1, 2)]), goal: nil, today: today),
            MetricToday(values: values(.sleep, [(0, 7.5), (1, 6.5)]), goal: nil, today: today),
        ]
    }

    static func state(width: Int, height: Int) -> AppState {
        var state = profileState(width: width, height: height)
        let effects = press([.character("t")], &state)
        #expect(effects == [.loadToday])
        _ = update(&state, .todayLoaded(metrics()))
        return state
    }

    @Test func atEightyColumnsEachMetricShowsItsDayAverageGoalAndSparkline() throws {
        let lines = screen(Self.state(width: 80, height: 24)).lines
        let text = lines.joined(separator: "\n")
        let steps = try #require(lines.first { $0.contains(" Steps") }, "\(text)")
        #expect(lines.contains { $0.contains("›Weight") }, "the first row is chosen")
        #expect(steps.contains("4,000 steps") && steps.contains("7-day avg 7,250 steps"), "\(text)")
        #expect(steps.contains("▂█▇▃"), "the last four days, oldest first: \(steps)")
        #expect(text.contains("goal 10,000 steps: 40 %, 2 days in a row"), "\(text)")
        #expect(lines.contains { $0.contains("Water") && $0.contains("0.75 l") }, "\(text)")
        #expect(lines.contains { $0.contains("Sleep") && $0.contains("7.5 h") }, "\(text)")
        #expect(lines.contains { $0.contains("Weight") && $0.contains("80.0 kg, 2 days ago") }, "\(text)")
        #expect(lines.last?.contains("l log") == true && lines.last?.contains("Esc back") == true, "\(text)")
    }

    @Test func atFortyByTwelveTheNamesValuesAndGoalsStay() throws {
        let lines = screen(Self.state(width: 40, height: 12)).lines
        let text = lines.joined(separator: "\n")
        #expect(lines.allSatisfy { DisplayWidth.of($0) == 40 })
        for (name, value) in [("Steps", "4,000 steps"), ("Water", "0.75 l"), ("Sleep", "7.5 h"), ("Weight", "80.0 kg")]
        {
            #expect(lines.contains { $0.contains(name) && $0.contains(value) }, "\(name)\n\(text)")
        }
        #expect(text.contains("40 % of 10,000 steps"), "\(text)")
    }

    @Test func inGermanStepsAreSchritte() throws {
        var state = Self.state(width: 80, height: 24)
        state.language = EditorLanguage(settings: LanguageSettings(override: "de"), catalogs: .embedded)
        let text = screen(state).lines.joined(separator: "\n")
        #expect(text.contains("Schritte"), "\(text)")
        #expect(text.contains("4.000 Schritte"), "\(text)")
        #expect(text.contains("0,75 l"), "\(text)")
    }

    /// `l` opens the command line on the metric chosen; the value typed is logged through the one
    /// way in, and the screen is read again when the account changes.
    @Test func lLogsTheChosenMetricFromTheCommandLine() throws {
        var state = Self.state(width: 80, height: 24)
        press([.down, .down, .character("l")], &state)
        #expect(state.commandLine?.text == "log water ")
        let effects = press(type("0.25 l --note tea") + [.enter], &state)
        guard case .save(.measurement(.water, 0.25, nil, nil, "tea"))? = effects.first else {
            Issue.record("\(effects)")
            return
        }
        #expect(state.commandLine == nil)
        press([.character("p")], &state)
        #expect(state.screen == .progress && state.progress.series == .metric(.water))
    }

    @Test func theCommandLineOpensTodayAndRefusesABadValueWithItsRule() throws {
        var state = profileState(width: 80, height: 24)
        press([.character(":")] + type("today") + [.enter], &state)
        #expect(state.screen == .today)
        press([.character(":")] + type("log steps -5") + [.enter], &state)
        #expect(state.message?.text == "Steps must be a whole number between 1 and 100,000.")
        #expect(state.commandLine?.text == "log steps -5")
    }
}
