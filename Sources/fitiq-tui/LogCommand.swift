import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// When an entry was measured and its note: the options of every logging command.
struct LoggingOptions: ParsableArguments {
    @Option(help: "The day of a past measurement, YYYY-MM-DD (logged at 12:00 unless --at).") var date: String?
    @Option(
        help: "The time it was measured, HH:MM, or a day and a time (\"2026-11-30 07:30\"), local; never in the future."
    )
    var at: String?
    @Option(help: "A note kept with the entry (at most 500 characters).") var note: String?

    func validate() throws {
        _ = try when()
    }

    /// The day and the time given, checked as plain mode's `log` checks them (``LogWhen``); the future
    /// is refused when the entry is logged.
    func when() throws -> (day: CalendarDate?, time: TimeOfDay?) {
        try LogWhen(day: date, time: at, note: note).resolved()
    }

    /// Logs `value` (as typed) of `metric` on `account` and says so; with `sending`, delivers it.
    func log(_ metric: Metric, _ value: String, on account: Account, sending: Bool) async throws {
        guard let profile = try await account.view().profile else { throw AccountError.profileNotLoaded }
        let units = profile.preferredUnitSystem
        let parsed = try metric.parse(value, unitSystem: units)
        let (day, time) = try when()
        let applied = try await account.apply(
            .measurement(metric, parsed, day: day, time: time, notes: note), sending: sending)
        print(LogSentences.said(applied.outcome, of: metric, units: units, day: day, time: time))
        guard applied.outcome.saved else { return }
        try await finishWrite(account, noSync: !sending)
    }
}

/// `fitiq-tui log METRIC VALUE [UNIT]`: logs any metric the server records.
struct LogCommand: AsyncParsableCommand, SendingCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "log",
            abstract: "Log steps, water, sleep, food, mood or any other metric: log water 0.25 l.",
            usage: "fitiq-tui log <metric> <value> [<unit>] [--date DAY] [--at TIME] [--note TEXT]",
            discussion: """
                METRIC is one of \(Metric.all.map(\.id).joined(separator: ", ")). VALUE is typed with an \
                optional unit (a bare number is in your unit system's unit): log steps 4000, log water 500 ml, \
                log sleep 7h30m, log distance 3.1 mi, log calories-in 2300 kcal, log mood 7 --note "good day". \
                A day's amount (steps, water, food…) is the sum of the day's entries; a night's sleep belongs \
                to the day it ends on. Without --date or --at, logged now.
                """)
    }

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var logging: LoggingOptions
    @Argument(help: "The metric, e.g. water, steps, sleep.") var metric: String
    // Unrecognised words too: a negative number is a value (refused by the metric's rule), not an option.
    @Argument(parsing: .allUnrecognized, help: "The value and its unit, e.g. 0.25 l or 500 ml.") var words: [String]
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func validate() throws {
        let chosen = try Self.requireMetric(metric, logging: true)
        if let option = words.first(where: { $0.hasPrefix("--") && $0 != "--" }) {
            throw ValidationError(tr("Unknown option '{option}'.", ["option": TextSanitizer.sanitize(option)]))
        }
        guard words.contains(where: { $0 != "--" }) else {
            throw ValidationError(
                tr("Give a value, e.g. log {metric} {example}.", ["metric": chosen.id, "example": chosen.example]))
        }
    }

    /// The metric `name` names, or the usage error that lists the metrics there are; `logging` (a value
    /// to log or correct), one of those people log: the BMI the server records is read, never logged.
    static func requireMetric(_ name: String, logging: Bool = false) throws -> Metric {
        guard let chosen = metric(named: name) else {
            throw ValidationError(
                tr(
                    "Unknown metric '{name}': use one of {metrics}.",
                    ["name": TextSanitizer.sanitize(name), "metrics": Metric.all.map(\.id).joined(separator: ", ")]))
        }
        guard !logging || chosen.isLogged else {
            throw ValidationError(
                tr("BMI is derived from your weight and height and never logged: log a weight or set your height."))
        }
        return chosen
    }

    /// The metric a command names: its id (`water`) or its backend type (`water_liters`, `bmi`).
    static func metric(named name: String) -> Metric? {
        let name = name.lowercased()
        return Metric.named(name) ?? Metric.ofType(name)
    }

    func run() async throws {
        try await withApp(globals, sending: !noSync) { app in
            let account = try app.requireAccount()
            guard let chosen = Self.metric(named: metric) else { return }
            try await logging.log(
                chosen, words.filter { $0 != "--" }.joined(separator: " "), on: account, sending: !noSync)
        }
    }
}
