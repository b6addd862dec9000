import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A format `import` reads, as a value: its name, how an entry of it is recognised by its content, and
/// the reader that turns the entry into readings and named bad rows. ``all`` lists them; each app's
/// format is defined in the file named for it (`Apps/`).
public struct ExportFormat: Sendable {
    /// The name `import --format` takes (`withings`, `fitbit`, …).
    public let name: String
    /// Where its readings come from, as the history keeps it.
    public let source: ProgressEntry.Source
    /// Whether its files hold local times without a zone (read in the zone of the options).
    public let readsLocalTimes: Bool
    /// How its entries are told apart and read.
    let layout: Layout
    /// The format as a person recognises it: the app and its file.
    public let described: @Sendable () -> String

    /// The three kinds of entry the formats are: a table read as its bytes arrive, a JSON document read
    /// whole, a SQLite database read from a file.
    enum Layout: Sendable {
        case table(TableLayout)
        case json(JSONLayout)
        case database(DatabaseLayout)
    }

    /// The readings of a file of this format, before any is read.
    func emptyReadings() -> FileReadings {
        FileReadings(format: name, source: source, readsLocalTimes: readsLocalTimes)
    }
}

extension ExportFormat {
    // The formats: what each is and where its readings come from; each reads as its app's file says
    // (Apps/, a file per app).
    static let fitiq = ExportFormat(
        name: "fitiq", source: .import, readsLocalTimes: false, layout: FitIQCSV.layout,
        described: { tr("fitiq-tui's export (logged_at,metric,value,unit,source,id)") })
    static let fitiqJSON = ExportFormat(
        name: "fitiq-json", source: .import, readsLocalTimes: false, layout: FitIQJSON.layout,
        described: { tr("fitiq-tui's JSON export (export --json)") })
    static let openScale = ExportFormat(
        name: "openscale", source: .import, readsLocalTimes: true, layout: OpenScaleCSV.layout,
        described: { tr("openScale's export (\"dateTime\",\"weight\",\"fat\",…)") })
    static let dateWeight = ExportFormat(
        name: "wger", source: .import, readsLocalTimes: true, layout: WgerCSV.layout,
        described: { tr("wger's weight export or a plain file (date,weight)") })
    static let withings = ExportFormat(
        name: "withings", source: .withings, readsLocalTimes: true, layout: WithingsExport.layout,
        described: { tr("Withings Health Mate's export (weight.csv, height.csv)") })
    static let samsungHealth = ExportFormat(
        name: "samsung-health", source: .samsungHealth, readsLocalTimes: false, layout: SamsungHealthExport.layout,
        described: { tr("Samsung Health's export (weight, step_daily_trend, sleep, water_intake *.csv)") })
    static let libra = ExportFormat(
        name: "libra", source: .libra, readsLocalTimes: true, layout: LibraCSV.layout,
        described: { tr("Libra's CSV export") })
    static let renpho = ExportFormat(
        name: "renpho", source: .renpho, readsLocalTimes: true, layout: RenphoCSV.layout,
        described: { tr("Renpho's CSV export") })
    static let fitbit = ExportFormat(
        name: "fitbit", source: .fitbit, readsLocalTimes: true, layout: FitbitTakeout.layout,
        described: { tr("Fitbit in Google Takeout (weight-*.json, steps-*.json, sleep-*.json, …)") })
    static let googleFit = ExportFormat(
        name: "google-fit", source: .googleFit, readsLocalTimes: false, layout: GoogleFitTakeout.layout,
        described: { tr("Google Fit in Google Takeout (All Data/*.json)") })
    static let garmin = ExportFormat(
        name: "garmin", source: .garmin, readsLocalTimes: false, layout: GarminExport.layout,
        described: { tr("Garmin Connect's export (*userBioMetrics.json, UDSFile_*.json, *_sleepData.json)") })
    static let healthConnect = ExportFormat(
        name: "health-connect", source: .healthConnect, readsLocalTimes: false, layout: HealthConnectDatabase.layout,
        described: { tr("Android Health Connect's export (a SQLite database)") })

}

extension ExportFormat {
    /// Every format read but Apple Health's (its export is a ``HealthSource``: ``AppleHealthExport``),
    /// in the order they are tried: the first that recognises an entry reads it.
    public static let all: [ExportFormat] = [
        .fitiq, .fitiqJSON, .openScale, .samsungHealth, .renpho, .withings, .libra, .dateWeight, .googleFit, .fitbit,
        .garmin, .healthConnect,
    ]

    /// The format named `name`, or `nil`.
    public static func named(_ name: String) -> ExportFormat? {
        all.first { $0.name == name }
    }

    /// What the format named `name` is, for people (the name itself when no format has it).
    public static func describe(_ name: String) -> String {
        named(name)?.described() ?? name
    }

    /// The first of `formats` that recognises an entry whose first bytes are `head` and whose file name
    /// is `name`, or `nil`.
    static func recognising(head: [UInt8], name: String, among formats: [ExportFormat] = all) -> ExportFormat? {
        let text = JSONDocument.mayStart(head) ? String(decoding: head, as: UTF8.self) : nil
        let tableFormat = TableReader.format(ofHead: head, among: formats)
        let isDatabase = head.starts(with: Array("SQLite format 3\u{0}".utf8))
        return formats.first { format in
            switch format.layout {
            case .table: format.name == tableFormat
            case .json(let layout): text.map { layout.recognise($0, name) } ?? false
            case .database: isDatabase
            }
        }
    }

    /// Reads `data`, a JSON document of this format named `fileName` (some apps' files say what they
    /// hold by their name: Fitbit's `steps-2024-03-01.json`), whole (the walk reads files; the tests and
    /// the fuzz target read documents).
    func read(json data: Data, name fileName: String = "", _ options: ImportOptions, heightCm: Double? = nil)
        throws -> FileReadings
    {
        guard case .json(let layout) = layout else { throw ImportError.unreadableJSON(name) }
        var file = emptyReadings()
        try layout.read(data, fileName, options, heightCm, &file)
        return file
    }

    /// The tables' formats, described: what a header that none of them has is compared with.
    static var tablesDescribed: [String] {
        all.compactMap { format in
            guard case .table = format.layout else { return nil }
            return format.described()
        }
    }
}

/// A table (CSV) format: which header is its own, and how its rows become readings.
struct TableLayout: Sendable {
    /// The header's columns as the format names them (lower case, trimmed), when `columns` are this
    /// format's header; `preamble` holds the lines before the header, lower case.
    let recognise: @Sendable (_ columns: [String], _ preamble: [String]) -> [String]?
    /// The columns its rows are read from: the header's others are reported as left out. `nil`: all.
    let columnsRead: Set<String>?
    /// A reader of one file's rows, with the options and the lines before the header.
    let rows: @Sendable (_ options: ImportOptions, _ preamble: [String]) -> any TableRows
}

/// The rows of one table file, read one at a time into its readings.
protocol TableRows: Sendable {
    /// Reads one row: its fields by column, and the line it starts on.
    mutating func read(_ row: [String: String], line: Int, into file: inout FileReadings)
    /// Once every row is read: what waited for a later row. Throws when the file cannot be read whole.
    mutating func finish(into file: inout FileReadings) throws(ImportError)
}

extension TableRows {
    mutating func finish(into file: inout FileReadings) throws(ImportError) {}
}

/// Rows read by a function of the row alone: most tables.
struct RowByRow: TableRows {
    let readRow: @Sendable (_ row: [String: String], _ line: Int, _ file: inout FileReadings) -> Void

    mutating func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
        readRow(row, line, &file)
    }
}

/// A JSON format: which document is its own (from its first bytes and its name), and how it is read.
struct JSONLayout: Sendable {
    /// Whether `head` (the document's first bytes, as text) and `name` (its file name) are this format's.
    let recognise: @Sendable (_ head: String, _ name: String) -> Bool
    /// Reads the document named `name` (its file name, without folders) into `file`; `heightCm`, the
    /// profile's height when known, may tell a unit.
    let read:
        @Sendable (
            _ data: Data, _ name: String, _ options: ImportOptions, _ heightCm: Double?, _ file: inout FileReadings
        ) throws -> Void
}

/// A SQLite database format: read from a file on disk (a zip's member is copied to one first).
struct DatabaseLayout: Sendable {
    /// The database's readings, or `nil` when it holds none of the format's tables.
    let read: @Sendable (_ path: String, _ format: ExportFormat, _ options: ImportOptions) throws -> FileReadings?
}
