import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQTUI
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `fitiq-tui today`: each metric's day, its 7-day average, its goal and the last 30 days, from the
/// cache (nothing waits for the network).
struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show today: steps, water, sleep, food, weight… with the 7-day average and the goals.",
        discussion: """
            Read from this machine's cache: run `sync` first for what other devices logged. --json prints \
            {"metrics": [{"type", "unit", "today", "average_7d", "goal"?}]} in the backend's units; --line \
            prints one short line for a shell's login or prompt ("4,000 steps of 10,000 · 0.75 l water · \
            slept 7.5 h · weighed 2 days ago").
            """)

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print one short line (for a shell's login or prompt).") var line = false

    func validate() throws {
        if json && line { throw ValidationError("Choose one of --json and --line.") }
    }

    func run() async throws {
        try await Self.show(.live(options: globals), json: json, line: line)
    }

    /// Whether `arguments` are `today --line` alone, which a shell's prompt runs each time: `main`
    /// then shows it without the argument parser (it reflects over every command's options first).
    static func isBareLine(_ arguments: [String]) -> Bool {
        arguments == ["today", "--line"]
    }

    /// Today as text, JSON or one line, for the account `config` names.
    static func show(_ config: AppConfig, json: Bool, line: Bool) async throws {
        try await withApp(config, machineOutput: json) { app in
            let account = try app.requireAccount()
            let metrics = try await account.today()
            let today = CalendarDate(containing: Date(), in: .system)
            if json { return print(Output.json(TodayJSON(metrics))) }
            let units = try await account.view().profile?.preferredUnitSystem ?? .metric
            if line { return print(MetricToday.line(metrics, units: units, today: today)) }
            print(
                Output.todayText(
                    metrics, units: units, today: today,
                    graphics: .choose(environment: ProcessInfo.processInfo.environment)))
        }
    }
}

/// `today --json`.
struct TodayJSON: Encodable {
    struct Metric: Encodable {
        let type: String
        let unit: String
        @Null var today: Double?
        @Null var average7d: Double?
        let goal: Goal?

        enum CodingKeys: String, CodingKey {
            case type, unit, today, average7d = "average_7d", goal
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(unit, forKey: .unit)
            try container.encode(_today, forKey: .today)
            try container.encode(_average7d, forKey: .average7d)
            try container.encodeIfPresent(goal, forKey: .goal)
        }
    }

    /// A goal: its target, and for a daily goal whether today met it, the streak and the days met this week.
    struct Goal: Encodable {
        let target: Double
        let met: Bool?
        let streak: Int?
        let metThisWeek: Int?

        enum CodingKeys: String, CodingKey {
            case target, met, streak, metThisWeek = "met_this_week"
        }
    }

    let metrics: [Metric]

    init(_ metrics: [MetricToday]) {
        self.metrics = metrics.map { day in
            Metric(
                type: day.metric.type, unit: day.metric.unit, today: day.today.map(Self.rounded),
                average7d: day.averageOf7Days.map(Self.rounded),
                goal: day.goal.map { goal in
                    Goal(
                        target: goal.target, met: day.dailyGoal?.met, streak: day.dailyGoal?.streak,
                        metThisWeek: day.dailyGoal?.metThisWeek)
                })
        }
    }

    /// To a thousandth: a sum of tenths reads as `0.75`, not `0.7500000000000001`.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

extension Output {
    /// `today`'s table: a line per metric (its name, today, the 7-day average, the last 30 days), and
    /// its goal on the line under it.
    static func todayText(
        _ metrics: [MetricToday], units: UnitSystem, today: CalendarDate, graphics: ChartGraphics
    ) -> String {
        guard !metrics.isEmpty else {
            return tr("Nothing logged yet: `fitiq-tui log water 0.25 l` logs a glass of water.")
        }
        let rows = metrics.map { day in
            [
                day.metric.field.label, day.valueText(units: units, today: today), day.averageText(units: units),
                Sparkline.text(day.days, graphics: graphics),
            ]
        }
        let widths = (0..<3).map { column in rows.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        var lines = [tr("Today, {day}", ["day": today.description])]
        for (day, row) in zip(metrics, rows) {
            let padded = (0..<3).map { row[$0] + String(repeating: " ", count: widths[$0] - DisplayWidth.of(row[$0])) }
            lines.append((padded + [row[3]]).joined(separator: "  "))
            let goal = day.goalText(units: units)
            if !goal.isEmpty { lines.append(String(repeating: " ", count: widths[0] + 2) + goal) }
        }
        return lines.joined(separator: "\n")
    }
}
