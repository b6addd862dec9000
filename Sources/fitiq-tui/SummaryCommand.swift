import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `fitiq-tui summary`: a metric's readings by week or month.
struct SummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "Summarise a metric by week or month: mean, lowest, highest, trend.",
        discussion: """
            One row for each Monday-to-Sunday week or calendar month (local time) that holds readings, \
            oldest first: the number of readings, their mean, lowest and highest, the trend as the \
            period ends (it runs over the whole history), and the change of the mean since the row \
            before. For a day's amount (steps, water, food…) or sleep, a period's rows are its days: the \
            mean is the average day, and total its sum. Text is in your unit system; --csv and --json are \
            in the metric's unit (cm, kg, %, kg/m², steps, l…) unless --units imperial. CSV columns: start, \
            end, readings, mean, lowest, highest, trend, change, unit, total (empty for a reading).
            """)

    @OptionGroup var globals: GlobalOptions
    @Option(help: "week or month.") var by: String = "week"
    @Option(help: "A metric (weight, height, body-fat, steps, water, sleep…) or bmi.") var metric: String = "weight"
    @OptionGroup var span: DaysAndUnits
    @Flag(help: "Write CSV (RFC 4180, a header row).") var csv = false
    @Flag(help: "Write a JSON array of periods.") var json = false

    struct PeriodJSON: Encodable {
        let start: String
        let end: String
        let readings: Int
        let mean: Double
        let lowest: Double
        let highest: Double
        let trend: Double
        @Null var change: Double?
        let unit: String
        /// A day's amount's or a night's sum over the period; `null` for a reading.
        @Null var total: Double?
    }

    func validate() throws {
        if csv && json { throw ValidationError("Choose one of --csv and --json.") }
        guard SummaryPeriod(rawValue: by) != nil else { throw ValidationError("--by must be week or month.") }
        guard MeasurementSeries.named(metric) != nil else {
            throw ValidationError(
                "--metric \(TextSanitizer.sanitize(metric)) is not a metric: use one of "
                    + (Metric.all.map(\.id) + ["bmi"]).joined(separator: ", ") + ".")
        }
    }

    func run() async throws {
        try await withApp(globals, machineOutput: json || csv) { app in
            let account = try app.requireAccount()
            guard let series = MeasurementSeries.named(metric), let period = SummaryPeriod(rawValue: by) else { return }
            let zone = LocalZone.system
            let history = try await account.progressHistory(of: series)
            let report = history.report(
                since: span.firstDay?.instant(atHour: 0, in: zone),
                until: span.lastDay?.adding(days: 1).instant(atHour: 0, in: zone)
                    .addingTimeInterval(-0.001))
            let summaries = report.summaries(by: period, in: zone)
            guard csv || json else {
                let profile = try await account.view().profile
                let shown = profile?.preferredUnitSystem ?? .metric
                if summaries.isEmpty {
                    return print(tr("No {missing} in that range.", ["missing": series.missingText]))
                }
                print(SummaryTable(summaries, of: series, units: shown, by: period).lines().joined(separator: "\n"))
                // A child's or a teenager's heights say how fast they grow.
                if series == .metric(.height),
                    let growth = GrowthSentences.sentence(
                        heights: history.points.map(\.entry), dateOfBirth: profile?.dateOfBirth,
                        today: CalendarDate(containing: Date(), in: zone), units: shown)
                {
                    print(growth)
                }
                return
            }
            let unitSystem = span.unitSystem
            let value = { (number: Double) in series.value(number, in: unitSystem).value }
            let unit = series.value(0, in: unitSystem).unit
            let rows = summaries.map { summary in
                PeriodJSON(
                    start: summary.start.description, end: summary.end.description, readings: summary.count,
                    mean: value(summary.mean), lowest: value(summary.lowest), highest: value(summary.highest),
                    trend: value(summary.trend), change: summary.change.map(value), unit: unit,
                    total: (series.metric.map { $0.kind != .reading } ?? false) ? value(summary.total) : nil)
            }
            if json { return print(Output.json(rows)) }
            var text = "start,end,readings,mean,lowest,highest,trend,change,unit,total\r\n"
            for row in rows {
                text +=
                    [
                        row.start, row.end, "\(row.readings)", DecimalText.format(row.mean, places: 2),
                        DecimalText.format(row.lowest, places: 2), DecimalText.format(row.highest, places: 2),
                        DecimalText.format(row.trend, places: 2),
                        row.change.map { DecimalText.format($0, places: 2) } ?? "",
                        ExportText.csvField(row.unit), row.total.map { DecimalText.format($0, places: 2) } ?? "",
                    ].joined(separator: ",") + "\r\n"
            }
            StandardStreams.write(text, to: STDOUT_FILENO)
        }
    }
}
