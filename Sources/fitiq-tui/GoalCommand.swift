import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `fitiq-tui goal`: a target for weight or body fat, kept on this machine (the service has none).
struct GoalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal",
        abstract: "Set, show or clear a goal for weight or body fat (kept on this machine only).",
        discussion: """
            The FitIQ service keeps no goals: they stay with the account in this machine's cache, and \
            logout removes them. The progress screen draws a goal as a line, and a goal with a date as \
            a plan from the day it was set.
            """,
        subcommands: [Set.self, Show.self, Clear.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the goal of weight or body fat (replacing any earlier one).",
            discussion: "The value is typed as the metric is, in your unit system: 75, 75 kg, 165 lb, 20 %.")

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "weight or body-fat.") var metric: String
        @Argument(help: "The target, e.g. 75 or 165 lb (several words are joined).") var words: [String]
        @Option(help: "The day to reach it by, YYYY-MM-DD (today or later).") var by: String?

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("Give the target, e.g. goal set weight 75.") }
        }

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                let units = try await account.view().profile?.preferredUnitSystem ?? .metric
                let today = CalendarDate(containing: Date(), in: .system)
                // A value the rules refuse is a usage error (exit 64) naming the rule.
                print(
                    try await Self.setGoal(
                        metric: metric.lowercased(), target: words.joined(separator: " "), by: by, on: account,
                        units: units, today: today))
            }
        }

        /// Sets the goal as typed (`weight`, `75 kg`, a day or none) on `account`, and says so; plain
        /// mode's `goal` sets it the same way. A value the rules refuse throws the rule (``ValidationError``).
        static func setGoal(
            metric: String, target: String, by day: String?, on account: Account, units: UnitSystem,
            today: CalendarDate
        ) async throws -> String {
            let parsed = try Goal.parse(metric: metric, target: target, by: day, unitSystem: units, today: today)
            let applied = try await account.apply(.setGoal(parsed.metric, target: parsed.target, by: parsed.by))
            guard case .goalSet(let goal) = applied.outcome else { return "" }
            let shown = parsed.metric.format(goal.target, unitSystem: units)
            return goal.by.map {
                tr(
                    "Goal set: {target} by {day}. It is kept on this machine: the service has no goals.",
                    ["target": shown, "day": $0.description])
            } ?? tr("Goal set: {target}. It is kept on this machine: the service has no goals.", ["target": shown])
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Say where the trend stands against each goal.",
            discussion:
                "The rate is the trend's over the last 3 months. --json prints [{metric, target, unit, by, setAt}].")

        @OptionGroup var globals: GlobalOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            try await withApp(globals, machineOutput: json) { app in
                let account = try app.requireAccount()
                if json { return print(Output.json(Output.GoalJSON.list(try await account.goals()))) }
                let units = try await account.view().profile?.preferredUnitSystem ?? .metric
                let statuses = try await account.goalStatuses()
                if statuses.isEmpty { return print(tr("No goals are set (`fitiq-tui goal set weight 75` sets one).")) }
                let today = CalendarDate(containing: Date(), in: .system)
                for status in statuses {
                    print(status.sentences(units: units, today: today).joined(separator: "\n"))
                }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Clear a goal.")

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "weight or body-fat.") var metric: String

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                guard let chosen = Metric.named(metric.lowercased()), chosen.goalBand != nil else {
                    throw FitIQCore.ValidationError.invalidFormat(
                        .goal,
                        rule: .clearedGoalMetric(given: metric, allowed: Goal.metrics.map(\.id)))
                }
                let cleared = try await account.apply(.clearGoal(chosen)).outcome.saved
                print(
                    cleared
                        ? tr("The {measurement} goal is cleared.", ["measurement": chosen.complement])
                        : tr("There was no such goal."))
            }
        }
    }
}
