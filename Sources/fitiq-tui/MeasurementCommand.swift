import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the commands of one metric say about it; the commands themselves are one generic shape.
protocol MetricCommandText {
    static var metric: Metric { get }
    /// How values are typed, for `set --help`.
    static var valueForms: String { get }
    /// One example value, for messages.
    static var example: String { get }
}

enum HeightText: MetricCommandText {
    static let metric = Metric.height
    static let valueForms = """
        VALUE may be 180.5, 180.5 cm, 1.8 m, 5'11", 5 ft 11 in or 71 in. A bare number is in your \
        unit system (cm for metric, inches for imperial).
        """
    static let example = "180.5 cm or 5'11\""
}

enum WeightText: MetricCommandText {
    static let metric = Metric.weight
    static let valueForms = """
        VALUE may be 72.4, 72.4 kg, 160 lb, 160.4 lbs or 11 st 4 lb. A bare number is in your unit \
        system (kg for metric, lb for imperial).
        """
    static let example = "72.4 kg or 160 lb"
}

enum BodyFatText: MetricCommandText {
    static let metric = Metric.bodyFat
    static let valueForms = "VALUE is a percentage of body weight: 18.5 or 18.5 %."
    static let example = "18.5 %"
}

typealias HeightCommand = MeasurementCommand<HeightText>
typealias WeightCommand = MeasurementCommand<WeightText>
typealias BodyFatCommand = MeasurementCommand<BodyFatText>

/// `height`, `weight` and `body-fat`: set a value, list, delete and correct entries.
struct MeasurementCommand<Text: MetricCommandText>: AsyncParsableCommand {
    static var metric: Metric { Text.metric }
    /// `height`, `weight`, `body fat`.
    static var name: String { metric.field.label.lowercased() }

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: metric.id,
            abstract: metric == .height
                ? "Set your height or read its history." : "Log your \(name) or read its history.",
            subcommands: [Set.self, History.self, Delete.self, Correct.self])
    }

    struct Set: AsyncParsableCommand, SendingCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "set",
                abstract: metric == .height
                    ? "Set your height; each change is also logged in your height history."
                    : "Log your \(name) now (or on --date) in your \(name) history.",
                discussion: Text.valueForms + "\n"
                    + (metric == .height
                        ? "With --date, a past measurement: logged on that day, and the current height only if newest."
                        : "With --date, a past measurement, logged at 12:00 on that day (--at sets the time)."))
        }

        @OptionGroup var globals: GlobalOptions
        @OptionGroup var logging: LoggingOptions
        // Unrecognised words too: a negative number is a value (refused by the metric's rule), not an option.
        @Argument(parsing: .allUnrecognized, help: "The value, e.g. \(Text.example) (several words are joined).")
        var words: [String]

        /// The words of the value (a `--` that ends the options is no part of it).
        var value: String { words.filter { $0 != "--" }.joined(separator: " ") }
        @Flag(help: "Only save on this machine; `sync` sends it later (for scripts making many changes).")
        var noSync = false

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("Give a \(name), e.g. \(Text.example).") }
            if let option = words.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
                throw ValidationError(tr("Unknown option '{option}'.", ["option": TextSanitizer.sanitize(option)]))
            }
            // The value itself is parsed once, in the account's units, when the profile has been read.
        }

        func run() async throws {
            try await withApp(globals, sending: !noSync) { app in
                try await logging.log(metric, value, on: try app.requireAccount(), sending: !noSync)
            }
        }
    }

    struct History: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "history",
                abstract: "List your \(name) history, newest first.",
                discussion:
                    "--json prints [{id, loggedAt, \(metric.valueKey), source, synced, notes}]; --csv prints "
                    + "id,logged_at,\(metric.csvColumn),source,synced,notes. The id names an entry for "
                    + "`\(metric.id) delete` and `\(metric.id) correct`."
            )
        }

        @OptionGroup var globals: GlobalOptions
        @OptionGroup var listing: HistoryListing

        func run() async throws {
            try await listing.print(metric, globals: globals)
        }
    }

    struct Delete: AsyncParsableCommand, SendingCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "delete", abstract: "Remove a \(name) entry (a mistyped one).",
                discussion: """
                    ID is the entry's id from `\(metric.id) history --json`. One not sent yet just leaves the \
                    outbox; one on the server is deleted there at the next sync.
                    """
                        + (metric == .height
                            ? " When it was the latest entry, your current height becomes the latest one left." : ""))
        }

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The entry's id.") var id: String
        @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

        func run() async throws {
            try await EntryChange.delete(metric, id: id, globals: globals, noSync: noSync)
        }
    }

    struct Correct: AsyncParsableCommand, SendingCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "correct", abstract: "Replace the value of a \(name) entry, keeping when it was logged.",
                discussion: """
                    ID is the entry's id from `\(metric.id) history --json`; VALUE is as for `\(metric.id) set`. \
                    Sent as one change: the old entry deleted, the new one posted.
                    """)
        }

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The entry's id.") var id: String
        @Argument(parsing: .remaining, help: "The right value, e.g. \(Text.example).") var words: [String]
        @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

        func run() async throws {
            try await EntryChange.correct(
                metric, id: id, to: words.joined(separator: " "), globals: globals, noSync: noSync)
        }
    }
}

/// `--json`, `--csv` and `--since` of a history, and its printing: `weight history` and `history METRIC`.
struct HistoryListing: ParsableArguments {
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print CSV.") var csv = false
    @Option(help: "Only entries on or after this day, YYYY-MM-DD.") var since: String?

    func validate() throws {
        if json && csv { throw ValidationError("Choose one of --json and --csv.") }
        if let since, CalendarDate(parsing: since) == nil || since.count != 10 {
            throw ValidationError("--since must be a real date written YYYY-MM-DD.")
        }
    }

    /// Refreshes `metric`'s history (the cached one when offline, said so) and prints it.
    func print(_ metric: Metric, globals: GlobalOptions) async throws {
        try await withApp(globals, machineOutput: json || csv) { app in
            let account = try app.requireAccount()
            do {
                _ = try await withDeadline(seconds: 10) { try await account.history(of: metric, refresh: true) }
            } catch let error as SessionError {
                throw error
            } catch {
                printError(
                    tr("Offline: showing the cached history ({error}).", ["error": ShownError(error).description]))
            }
            let entries = try await account.history(of: metric, refresh: false, since: since.flatMap(CalendarDate.init))
            if json {
                Swift.print(Output.json(Output.historyJSON(entries, of: metric)))
            } else if csv {
                Swift.print(Output.historyCSV(entries, of: metric))
            } else {
                let units = try await account.view().profile?.preferredUnitSystem ?? .metric
                Swift.print(Output.historyText(entries, of: metric, units: units, timeZone: .system))
            }
        }
    }
}

/// `fitiq-tui history METRIC`: any metric's history (`weight history` is the same for weight).
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List a metric's history, newest first: history water, history sleep.",
        discussion: """
            METRIC is one of \(Metric.all.map(\.id).joined(separator: ", ")), or bmi: the BMI entries the server \
            holds (another app's; the BMI shown is derived). A day's amount (steps, water, food…) and sleep \
            list each day's total with its entries under it. --json prints [{id, loggedAt, \
            <value key>, source, synced, notes}]; --csv the same columns.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The metric, e.g. water.") var metric: String
    @OptionGroup var listing: HistoryListing

    func validate() throws { _ = try LogCommand.requireMetric(metric) }

    func run() async throws {
        guard let chosen = LogCommand.metric(named: metric) else { return }
        try await listing.print(chosen, globals: globals)
    }
}

/// Removing and correcting an entry of any metric: `weight delete ID` and `delete water ID` alike.
enum EntryChange {
    /// Removes the entry `id` of `metric` and says which it was.
    static func delete(_ metric: Metric, id: String, globals: GlobalOptions, noSync: Bool) async throws {
        try await withApp(globals, sending: !noSync) { app in
            let account = try app.requireAccount()
            let units = try await account.view().profile?.preferredUnitSystem ?? .metric
            guard case .deleted(let removed) = try await account.apply(.delete(metric, id: id)).outcome else {
                return
            }
            let day = CalendarDate(containing: removed.loggedAt, in: .system)
            print(
                tr(
                    "Removed {value} of {day}.",
                    ["value": metric.format(removed.quantity, unitSystem: units), "day": day.description]))
            try await finishWrite(account, noSync: noSync)
        }
    }

    /// Replaces the value of the entry `id` of `metric` with `text` (typed as for logging it), keeping
    /// when it was logged and its note.
    static func correct(_ metric: Metric, id: String, to text: String, globals: GlobalOptions, noSync: Bool)
        async throws
    {
        try await withApp(globals, sending: !noSync) { app in
            let account = try app.requireAccount()
            let units = try await account.view().profile?.preferredUnitSystem ?? .metric
            let value = try metric.parse(text, unitSystem: units)
            let applied = try await account.apply(.correct(metric, id: id, to: value))
            guard case .corrected(let before, let after) = applied.outcome else { return }
            let day = CalendarDate(containing: before.loggedAt, in: .system)
            print(
                tr(
                    "Corrected {day}: {before} → {after}.",
                    [
                        "day": day.description, "before": metric.format(before.quantity, unitSystem: units),
                        "after": metric.format(after.quantity, unitSystem: units),
                    ]))
            try await finishWrite(account, noSync: noSync)
        }
    }
}

/// `fitiq-tui delete METRIC ID`: removes an entry of any metric (`weight delete ID` for weight).
struct DeleteCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Remove an entry of any metric: delete water ID.",
        discussion: """
            ID is the entry's id from `history METRIC --json`. One not sent yet just leaves the outbox; one \
            on the server is deleted there at the next sync.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The metric, e.g. water.") var metric: String
    @Argument(help: "The entry's id.") var id: String
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func validate() throws { _ = try LogCommand.requireMetric(metric) }

    func run() async throws {
        try await EntryChange.delete(try LogCommand.requireMetric(metric), id: id, globals: globals, noSync: noSync)
    }
}

/// `fitiq-tui correct METRIC ID VALUE`: replaces an entry's value, keeping its time and note.
struct CorrectCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct", abstract: "Replace the value of an entry of any metric: correct water ID 0.5 l.",
        discussion: """
            ID is the entry's id from `history METRIC --json`; VALUE is typed as for `log`. Sent as one \
            change: the old entry deleted, the new one posted, with the same time and note.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The metric, e.g. water.") var metric: String
    @Argument(help: "The entry's id.") var id: String
    // Unrecognised words too: a negative number is a value (refused by the metric's rule), not an option.
    @Argument(parsing: .allUnrecognized, help: "The right value, e.g. 0.5 l.") var words: [String]
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func validate() throws {
        let chosen = try LogCommand.requireMetric(metric, logging: true)
        guard words.contains(where: { $0 != "--" }) else {
            throw ValidationError(
                tr("Give a value, e.g. log {metric} {example}.", ["metric": chosen.id, "example": chosen.example]))
        }
    }

    func run() async throws {
        try await EntryChange.correct(
            try LogCommand.requireMetric(metric, logging: true), id: id,
            to: words.filter { $0 != "--" }.joined(separator: " "), globals: globals, noSync: noSync)
    }
}
