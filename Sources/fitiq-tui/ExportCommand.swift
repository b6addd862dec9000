import ArgumentParser
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `fitiq-tui export`: the measurements as CSV or JSON, streamed.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write your measurements as CSV or JSON.",
        discussion: """
            Columns: logged_at (RFC 3339 with the local offset), metric (the backend's type: height, \
            weight, body_fat_percentage, bmi, steps, distance_km, water_liters, sleep_hours…), value, unit, \
            source (manual, health, server, derived), id, notes. BMI rows are derived, one per weight \
            entry, with the height at its date (source derived); the BMI entries the server holds (another \
            app's) follow them with their own source. Values are in the backend's units (cm, kg, %, km, l…) \
            unless --units imperial (in, lb, mi, fl oz); the unit column says which. `import` reads either \
            back. --trend adds a trend column: the \
            time-aware trend after each reading. With --json, the goals set on this machine follow the \
            readings as rows whose source is goal: the target, dated the day to reach it by (else the day \
            it was set), id goal. The output is streamed: long histories are never held whole.
            """)

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Write CSV (RFC 4180, a header row; the default).") var csv = false
    @Flag(help: "Write a JSON array of rows with the same keys as the CSV columns.") var json = false
    @Option(
        name: .customLong("metric"),
        help:
            "A metric to export: its type or name (weight, body-fat, water_liters, steps…) or bmi; repeatable (default: all)."
    )
    var metrics: [String] = []
    @OptionGroup var span: DaysAndUnits
    @Flag(help: "Add a trend column: the time-aware trend after each reading, in the row's unit.") var trend = false

    func validate() throws {
        if csv && json { throw ValidationError("Choose one of --csv and --json.") }
        for name in metrics where MeasurementSeries.named(name) == nil {
            throw ValidationError(
                "--metric \(TextSanitizer.sanitize(name)) is not a metric: use one of "
                    + (Metric.all.map(\.id) + ["bmi"]).joined(separator: ", ") + ".")
        }
    }

    func run() async throws {
        try await withApp(globals, machineOutput: true) { app in
            let account = try app.requireAccount()
            var series: [MeasurementSeries] = []
            for name in metrics {
                if let item = MeasurementSeries.named(name), !series.contains(item) { series.append(item) }
            }
            if series.isEmpty { series = MeasurementSeries.all }
            let output = BufferedOutput(descriptor: STDOUT_FILENO)
            let zone = LocalZone.system
            var first = true
            output.write(json ? "[" : "logged_at,metric,value,unit,source,id,notes\(trend ? ",trend" : "")\r\n")
            let unitSystem = span.unitSystem
            try await account.export(
                series, since: span.firstDay, until: span.lastDay,
                units: unitSystem
            ) { row in
                let fields = ExportText.fields(row, timeZone: zone, trend: trend)
                if json {
                    output.write((first ? "\n  " : ",\n  ") + ExportText.jsonObject(fields))
                } else {
                    output.write(fields.map { ExportText.csvField($0.value) }.joined(separator: ",") + "\r\n")
                }
                first = false
            }
            if json {
                for goal in try await account.goals().known {
                    guard let metric = goal.metric, series.contains(.metric(metric)) else { continue }
                    let (value, unit) = metric.value(goal.target, in: unitSystem)
                    let row = ExportRow(
                        loggedAt: goal.by?.instant(atHour: 0, in: zone) ?? goal.setAt, metric: metric.type,
                        value: value,
                        unit: unit, source: "goal", id: "goal", trend: value)
                    output.write(
                        (first ? "\n  " : ",\n  ")
                            + ExportText.jsonObject(ExportText.fields(row, timeZone: zone, trend: trend)))
                    first = false
                }
                output.write(first ? "]\n" : "\n]\n")
            }
            output.flush()
        }
    }
}

/// How export rows are written.
enum ExportText {
    /// The columns of `row`, in order, as text.
    static func fields(_ row: ExportRow, timeZone: LocalZone, trend: Bool = false) -> [(key: String, value: String)] {
        [
            ("logged_at", localRFC3339(row.loggedAt, timeZone)), ("metric", row.metric),
            ("value", DecimalText.format(row.value, places: 2)), ("unit", row.unit), ("source", row.source),
            ("id", TextSanitizer.sanitize(row.id)), ("notes", row.notes),
        ] + (trend ? [("trend", DecimalText.format(row.trend, places: 2))] : [])
    }

    /// A CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// `{"id": "…", …}` with the value a number and the rest strings.
    static func jsonObject(_ fields: [(key: String, value: String)]) -> String {
        "{"
            + fields.map {
                "\"\($0.key)\": " + (["value", "trend"].contains($0.key) ? $0.value : JSONText.quoted($0.value))
            }
            .joined(separator: ", ") + "}"
    }

    /// `2026-03-01T12:00:00+01:00`: the local wall clock and its offset from UTC.
    static func localRFC3339(_ instant: Date, _ zone: LocalZone) -> String {
        let offset = zone.secondsEastOfUTC(at: instant)
        let local = Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let seconds = ((local % 86_400) + 86_400) % 86_400
        let day = CalendarDate(containing: instant, in: zone)
        let two = { (value: Int64) in DecimalText.padded(value, width: 2) }
        let sign = offset < 0 ? "-" : "+"
        let minutes = Int64(abs(offset) / 60)
        return "\(day)T\(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
            + "\(sign)\(two(minutes / 60)):\(two(minutes % 60))"
    }
}

/// Standard output through a 64 KB buffer: a row per write would be a system call per row.
final class BufferedOutput {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.write(String(decoding: buffer, as: UTF8.self), to: descriptor)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `--since`, `--until` and `--units`, as `export` and `summary` take them.
struct DaysAndUnits: ParsableArguments {
    @Option(help: "Only entries on or after this day, YYYY-MM-DD.") var since: String?
    @Option(help: "Only entries on or before this day, YYYY-MM-DD.") var until: String?
    @Option(help: "metric (cm, kg; the default) or imperial (in, lb).") var units: String?

    func validate() throws {
        for (option, value) in [("--since", since), ("--until", until)] {
            if let value, CalendarDate(parsing: value) == nil || value.count != 10 {
                throw ValidationError("\(option) must be a real date written YYYY-MM-DD.")
            }
        }
        if let units, (try? ProfileRules.unitSystem(units)) == nil {
            throw ValidationError("--units must be metric or imperial.")
        }
    }

    var firstDay: CalendarDate? { since.flatMap(CalendarDate.init) }
    var lastDay: CalendarDate? { until.flatMap(CalendarDate.init) }
    /// `nil`: each metric's own unit.
    var unitSystem: UnitSystem? { units.flatMap { try? ProfileRules.unitSystem($0) } }
}
