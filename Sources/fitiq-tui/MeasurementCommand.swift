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
                        : "With --date, a past measurement, logged at 12:00 on that day."))
        }

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The value, e.g. \(Text.example) (several words are joined).")
        var words: [String]

        var value: String { words.joined(separator: " ") }
        @Option(help: "The day of a past measurement, YYYY-MM-DD.") var date: String?
        @Flag(help: "Only save on this machine; `sync` sends it later (for scripts making many changes).")
        var noSync = false

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("Give a \(name), e.g. \(Text.example).") }
            if let date, CalendarDate(parsing: date) == nil || date.count != 10 {
                throw ValidationError("Date must be a real date written YYYY-MM-DD.")
            }
            // The value itself is parsed once, in the account's units, when the profile has been read.
        }

        func run() async throws {
            try await withApp(globals, sending: !noSync) { app in
                let account = try app.requireAccount()
                guard let profile = try await account.view().profile else { throw AccountError.profileNotLoaded }
                let units = profile.preferredUnitSystem
                let parsed = try metric.parse(value, unitSystem: units)
                let shown = metric.format(parsed, unitSystem: units)
                let day = date.flatMap { CalendarDate(parsing: $0) }
                let applied = try await account.apply(.measurement(metric, parsed, day: day), sending: !noSync)
                switch applied.outcome {
                case .heightUnchanged(let current):
                    print(
                        tr(
                            "Height unchanged ({value}).",
                            ["value": current.map { Height.format($0, unitSystem: units) } ?? ""]))
                    return
                case .heightSet(let height):
                    print(tr("Height set to {value}.", ["value": Height.format(height, unitSystem: units)]))
                case .logged(_, let isCurrentHeight):
                    guard let day else {
                        print(tr("Logged {value}.", ["value": shown]))
                        break
                    }
                    let values = ["value": shown, "day": day.description]
                    print(
                        metric != .height
                            ? tr("Logged {value} on {day}.", values)
                            : isCurrentHeight
                                ? tr("Logged {value} on {day}; it is your current height.", values)
                                : tr("Logged {value} on {day} (an earlier measurement).", values))
                default:
                    break
                }
                try await finishWrite(account, noSync: noSync)
            }
        }
    }

    struct History: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                commandName: "history",
                abstract: "List your \(name) history, newest first.",
                discussion:
                    "--json prints [{id, loggedAt, \(metric.valueKey), source, synced}]; --csv prints "
                    + "id,logged_at,\(metric.csvColumn),source,synced. The id names an entry for "
                    + "`\(metric.id) delete` and `\(metric.id) correct`."
            )
        }

        @OptionGroup var globals: GlobalOptions
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "Print CSV.") var csv = false
        @Option(help: "Only entries on or after this day, YYYY-MM-DD.") var since: String?

        func validate() throws {
            if json && csv { throw ValidationError("Choose one of --json and --csv.") }
            if let since, CalendarDate(parsing: since) == nil || since.count != 10 {
                throw ValidationError("--since must be a real date written YYYY-MM-DD.")
            }
        }

        func run() async throws {
            try await withApp(globals, machineOutput: json || csv) { app in
                let account = try app.requireAccount()
                do {
                    let metric = metric
                    _ = try await withDeadline(seconds: 10) { try await account.history(of: metric, refresh: true) }
                } catch let error as SessionError {
                    throw error
                } catch {
                    printError(
                        tr(
                            "Offline: showing the cached history ({error}).",
                            ["error": ShownError(error).description]))
                }
                let entries = try await account.history(
                    of: metric, refresh: false, since: since.flatMap(CalendarDate.init))
                if json {
                    print(Output.json(Output.historyJSON(entries, of: metric)))
                } else if csv {
                    print(Output.historyCSV(entries, of: metric))
                } else {
                    let units = try await account.view().profile?.preferredUnitSystem ?? .metric
                    print(Output.historyText(entries, of: metric, units: units, timeZone: .system))
                }
            }
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
            try await withApp(globals, sending: !noSync) { app in
                let account = try app.requireAccount()
                let units = try await account.view().profile?.preferredUnitSystem ?? .metric
                let value = try metric.parse(words.joined(separator: " "), unitSystem: units)
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
}
