#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One measurement read from a file of another app's export (or of fitiq-tui's own), with the line or
/// entry it came from. The importers (FitIQImport) make them; the account merges them (``Account``).
public struct Reading: Sendable, Equatable {
    public var metric: Metric
    /// In the metric's unit (cm, kg, %), to a hundredth.
    public var value: Double
    public var loggedAt: Date
    /// The line of a table, or the entry (from 1) of a list.
    public var line: Int
    /// Where the reading came from, when the file or its format says.
    public var source: ProgressEntry.Source?
    /// The entry's note, when the file has one (fitiq-tui's own export).
    public var notes: String?

    public init(metric: Metric, value: Double, loggedAt: Date, line: Int, source: ProgressEntry.Source? = nil) {
        self.metric = metric
        self.value = value
        self.loggedAt = loggedAt
        self.line = line
        self.source = source
    }
}

/// A row of a file that breaks a rule, named by its line (the header is line 1) or its entry.
public struct BadRow: Sendable, Equatable {
    /// What a row must be.
    public enum Rule: Sendable, Equatable {
        /// At most `bytes` bytes long.
        case rowTooLong(bytes: Int)
        /// UTF-8 text.
        case notUTF8
        /// As many fields as the header (`fields` found, `columns` in the header).
        case fieldCount(fields: Int, columns: Int)
        /// A `date` written `YYYY-MM-DD` (or an RFC 3339 time).
        case day
        /// A `metric` the server records (``Metric/recorded``).
        case metricType
        /// A `logged_at` written as an RFC 3339 time.
        case loggedAt
        /// A `unit` of the metric's (`unit` as found).
        case unit(String, of: Metric)
        /// The `column` written as its format writes it (`pattern`, for example `dd.MM.yyyy HH:mm`).
        case writtenAs(column: String, pattern: String)
        /// A number for the metric.
        case number(Metric)
        /// A value the metric's rule takes.
        case value(ValidationError)
        /// A time the format writes (`2024-03-01 07:30:00`, nanoseconds since 1970, …).
        case time
        /// The `key` (a JSON document's) written as text.
        case text(key: String)
        /// A sample (a stretch asleep, a count of steps) that ends at or after it starts.
        case endsBeforeStart
    }

    /// The line of a table, or the entry (from 1) of a list.
    public var line: Int
    public var rule: Rule
    /// Whether ``line`` counts a list's entries rather than lines.
    public var isEntry: Bool
    /// The file, when an import reads several (a folder, a zip), or the table of a database.
    public var file: String?

    public init(line: Int, rule: Rule, isEntry: Bool = false, file: String? = nil) {
        self.line = line
        self.rule = rule
        self.isEntry = isEntry
        self.file = file
    }
}

/// What one file of an export held: its readings, the rows that break a rule, and what was left out.
public struct FileReadings: Sendable, Equatable {
    /// The name of the file's format, as `import --format` takes it (`withings`, `fitbit`, …).
    public var format: String
    /// Where its readings come from, as the history keeps it (fitiq-tui's own export says it per row).
    public var source: ProgressEntry.Source
    /// Whether its times are local times without a zone (read in the zone of the options).
    public var readsLocalTimes: Bool
    public var readings: [Reading] = []
    /// The file's activity samples (steps, sleep, …), gathered per day: made into a day's total each
    /// once every file of the import is read.
    public var activity = ActivityDays()
    public var badRows: [BadRow] = []
    /// Columns read and left out (an app's water, muscle, …).
    public var skippedColumns: [String] = []
    /// Rows left out on purpose (the derived BMI rows of an export: BMI is derived, never imported).
    public var derivedRowsSkipped = 0
    /// Goal rows left out (a JSON export's: goals are kept on the machine they were set on).
    public var goalRowsSkipped = 0
    /// The unit weights were read in when the file does not say and it was told from the readings
    /// (weight ÷ BMI), else `nil`.
    public var inferredUnit: String?

    public init(format: String, source: ProgressEntry.Source, readsLocalTimes: Bool = false) {
        self.format = format
        self.source = source
        self.readsLocalTimes = readsLocalTimes
    }
}

/// Which part of a date comes first where a file writes `03/04/2024`.
public enum DateOrder: String, Sendable, Equatable, CaseIterable {
    /// Day, then month: `dmy`.
    case dayFirst = "dmy"
    /// Month, then day: `mdy`.
    case monthFirst = "mdy"
}

/// What a file leaves open: the unit of its weights, the zone of its local times, the order of its
/// dates.
public struct ImportOptions: Sendable {
    /// `kg` or `lb`; `nil` when the format or the file says.
    public var unit: String?
    public var zone: LocalZone
    public var dateOrder: DateOrder?

    public init(unit: String? = nil, zone: LocalZone, dateOrder: DateOrder? = nil) {
        self.unit = unit
        self.zone = zone
        self.dateOrder = dateOrder
    }

    /// Whether weights are in pounds, where the file does not say.
    public var pounds: Bool { unit.map { ["lb", "lbs"].contains($0.lowercased()) } ?? false }
}

/// Why a file of a known kind was refused whole.
public enum ImportError: Error, Equatable, Sendable {
    case empty
    /// A table whose header is none of the formats read (`formats`: those formats, described).
    case unknownHeader(String, formats: [String])
    /// Every date could be day first or month first (`03/04/2024`), and no option said which.
    case dateOrderUnclear
    /// A JSON file of a known format whose text cannot be read (`reason` says where).
    case unreadableJSON(String)
    /// The file does not say the unit of its weights, the readings do not tell, and no option said.
    case unitUnclear
}
