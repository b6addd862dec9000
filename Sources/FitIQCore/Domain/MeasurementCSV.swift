#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Measurements read from a file of an export: the readings, and the rows that break a rule, each
/// named by its line (the header is line 1) or its entry. The CSV files of every format are read here,
/// as their bytes arrive (``Reader``); JSON files by ``MeasurementJSON``, Health Connect's database by
/// ``healthConnect(_:)``. Which format a file is comes from its content (``Format``).
public struct MeasurementCSV: Sendable, Equatable {
    /// One reading, with the line it came from.
    public struct Reading: Sendable, Equatable {
        public var metric: Metric
        /// In the metric's unit (cm, kg, %), to a hundredth.
        public var value: Double
        public var loggedAt: Date
        public var line: Int
        /// Where the reading came from, when the file or its format says.
        public var source: ProgressEntry.Source? = nil
    }

    /// A row that breaks a rule.
    public struct Problem: Sendable, Equatable {
        /// The line of a CSV file, or the entry (from 1) of a JSON file's list.
        public var line: Int
        public var rule: Rule
        /// Whether ``line`` counts a JSON file's entries rather than lines.
        public var isEntry = false
        /// The file, when an import reads several (a folder, a zip).
        public var file: String? = nil
    }

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
        /// A `metric` this build tracks.
        case metricType
        /// A `logged_at` written as an RFC 3339 time.
        case loggedAt
        /// A `unit` of the metric's (`unit` as found).
        case unit(String, of: Metric)
        /// openScale's `dateTime`, written `dd.MM.yyyy HH:mm`.
        case openScaleTime
        /// A number for the metric.
        case number(Metric)
        /// A value the metric's rule takes.
        case value(ValidationError)
        /// A time the format writes (`2024-03-01 07:30:00`, nanoseconds since 1970, …).
        case time
    }

    public var format: Format
    public var readings: [Reading]
    public var problems: [Problem]
    /// Columns read and left out (openScale's water, muscle, …).
    public var skippedColumns: [String]
    /// Rows left out on purpose (BMI rows of an export: BMI is derived, never imported).
    public var derivedRowsSkipped: Int
    /// The unit weights were read in when the file does not say and it was told from the readings
    /// (Fitbit: weight ÷ BMI), else `nil`.
    public var inferredUnit: String? = nil
    /// Rows whose dates wait for a row that tells the order of day and month (Renpho).
    var undated: [UndatedRow] = []
    /// The order of day and month, once a row or the options told it.
    var dateOrder: DateOrder?

    struct UndatedRow: Sendable, Equatable {
        var fields: [String: String]
        var line: Int
    }

    public init(
        format: Format, readings: [Reading] = [], problems: [Problem] = [], skippedColumns: [String] = [],
        derivedRowsSkipped: Int = 0
    ) {
        self.format = format
        self.readings = readings
        self.problems = problems
        self.skippedColumns = skippedColumns
        self.derivedRowsSkipped = derivedRowsSkipped
    }

    /// The separators a header may use, tried in this order.
    static let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// The longest row read: every format's rows are a few dozen bytes.
    public static let maximumRowBytes = 4_096

    /// Reads `text` whole (``Reader`` reads a file in pieces).
    public static func read(_ text: String, unit: String? = nil, zone: LocalZone) throws(ImportError) -> MeasurementCSV
    {
        try read(text, Options(unit: unit, zone: zone))
    }

    /// The CSV format a file's first bytes show (its lines up to the header), or `nil`.
    public static func format(ofHead head: [UInt8]) -> Format? {
        guard let end = head.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        var reader = Reader(Options(zone: .utc))
        try? reader.read(head[...end])
        return reader.format
    }

    /// Reads `text` whole, with what the file leaves open.
    public static func read(_ text: String, _ options: Options) throws(ImportError) -> MeasurementCSV {
        var reader = Reader(options)
        try reader.read(text.utf8)
        return try reader.finish()
    }

    /// Reads a CSV file as its bytes arrive, one row at a time: memory holds at most
    /// ``MeasurementCSV/maximumRowBytes`` of a row, however long the file or its lines. UTF-8 (a
    /// byte-order mark and CRLF line ends are fine), RFC 4180 quotes, and the separator `,`, `;` or
    /// tab that the header has most of. `unit` is the unit of a `date,weight` file's weights (kg when
    /// `nil`); dates without a time are logged at 12:00 in `zone`.
    public struct Reader: Sendable {
        private var options: Options
        /// Whether the lines before the header said the file is Libra's (`#Version:`).
        private var sawLibraVersion = false
        /// Set once the header is read.
        private var csv: MeasurementCSV?
        private var columns: [String] = []
        private var separator = UInt8(ascii: ",")
        /// The row being read, and whether it outgrew the limit (the rest of it is not kept).
        private var row: [UInt8] = []
        private var rowTooLong = false
        private var quoted = false
        /// The line being read, and the one the row being read started on (a quoted field may hold
        /// line breaks).
        private var line = 1
        private var rowLine = 1

        public init(unit: String? = nil, zone: LocalZone) {
            self.init(Options(unit: unit, zone: zone))
        }

        public init(_ options: Options) {
            self.options = options
            row.reserveCapacity(256)
        }

        /// Reads the next bytes of the file, copied into one buffer first (for text at hand; a file is read
        /// in pieces straight from its buffer).
        public mutating func read(_ bytes: some Collection<UInt8>) throws(ImportError) {
            var failure: ImportError?
            Array(bytes).withUnsafeBytes { buffer in
                do throws(ImportError) {
                    try read(buffer)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
        }

        /// Reads the next bytes of the file. Throws when the header is not one of the formats read.
        /// (Not generic: called from another module, a generic loop over bytes would not be specialised
        /// and would cost a call per byte.)
        public mutating func read(_ bytes: UnsafeRawBufferPointer) throws(ImportError) {
            // Every byte the rules look at (quote, line feed, separators) is ASCII: one pass over bytes.
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    if !quoted {
                        try endRow()
                        continue
                    }
                } else if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                }
                if row.count < MeasurementCSV.maximumRowBytes {
                    row.append(byte)
                } else {
                    rowTooLong = true
                }
            }
        }

        /// The format its header showed, once read.
        public var format: Format? { csv?.format }

        /// What the file held, once every byte is read.
        public mutating func finish() throws(ImportError) -> MeasurementCSV {
            if !row.isEmpty || rowTooLong { try endRow() }
            guard var csv else { throw .empty }
            try csv.finishDeferred(options)
            return csv
        }

        private mutating func endRow() throws(ImportError) {
            defer {
                row.removeAll(keepingCapacity: true)
                rowTooLong = false
                rowLine = line
            }
            // Taken out while it grows, so that its arrays are not shared and copied for every row.
            guard var csv = csv.take() else {
                try readHeader()
                return
            }
            defer { self.csv = csv }
            let blank = { (byte: UInt8) in
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            }
            guard rowTooLong || !row.allSatisfy(blank) else { return }
            guard !rowTooLong else {
                csv.problems.append(
                    Problem(
                        line: rowLine,
                        rule: .rowTooLong(bytes: MeasurementCSV.maximumRowBytes)))
                return
            }
            guard String(validating: row, as: UTF8.self) != nil else {
                csv.problems.append(Problem(line: rowLine, rule: .notUTF8))
                return
            }
            var fields = MeasurementCSV.split(row, separator)
            // Samsung Health ends every row with a separator its header may lack.
            if fields.count == columns.count + 1, fields.last?.isEmpty == true { fields.removeLast() }
            guard fields.count == columns.count else {
                csv.problems.append(
                    Problem(
                        line: rowLine,
                        rule: .fieldCount(fields: fields.count, columns: columns.count)))
                return
            }
            let named = Dictionary(zip(columns, fields)) { first, _ in first }
            csv.readRow(named, line: rowLine, options)
        }

        private mutating func readHeader() throws(ImportError) {
            var header = row[...]
            if header.starts(with: [0xEF, 0xBB, 0xBF]) { header = header.dropFirst(3) }
            guard !rowTooLong, let text = String(validating: header, as: UTF8.self) else {
                throw .unknownHeader(TextSanitizer.sanitize(String(decoding: header.prefix(120), as: UTF8.self)))
            }
            let line = text.trimmingWhitespace()
            // Lines before the header: Samsung Health's metadata, Libra's `#Version:` and `#Units:`.
            if line.isEmpty || (line.hasPrefix("com.samsung.") && !line.contains("start_time")) { return }
            if line.hasPrefix("#") {
                let said = line.dropFirst().lowercased()
                if said.hasPrefix("version") { sawLibraVersion = true }
                if said.hasPrefix("units:") {
                    sawLibraVersion = true
                    if options.unit == nil { options.unit = said.contains("lb") ? "lb" : "kg" }
                }
                guard said.contains(";") else { return }
                header = header.drop { $0 != UInt8(ascii: "#") }.dropFirst()
            }
            separator =
                MeasurementCSV.separators.max {
                    MeasurementCSV.split(header, $0).count < MeasurementCSV.split(header, $1).count
                } ?? UInt8(ascii: ",")
            columns = MeasurementCSV.split(header, separator).map {
                let column = $0.trimmingWhitespace().lowercased()
                return column.hasPrefix("com.samsung.health.weight.")
                    ? String(column.dropFirst("com.samsung.health.weight.".count)) : column
            }
            while columns.last == "" { columns.removeLast() }
            guard let format = MeasurementCSV.format(ofColumns: columns, libra: sawLibraVersion) else {
                throw .unknownHeader(TextSanitizer.sanitize(String(text.prefix(120))))
            }
            csv = MeasurementCSV(format: format, skippedColumns: MeasurementCSV.columnsLeftOut(columns, of: format))
        }
    }

    /// One record's fields, with RFC 4180 quotes (`""` inside a quoted field is one quote); a carriage
    /// return outside quotes (a CRLF line end) is dropped.
    static func split(_ record: some Collection<UInt8>, _ separator: UInt8) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = record.startIndex
        while index < record.endIndex {
            let byte = record[index]
            let next = record.index(after: index)
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if next < record.endIndex, record[next] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index = record.index(after: next)
                        continue
                    }
                    quoted = false
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == separator {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte != UInt8(ascii: "\r") {
                field.append(byte)
            }
            index = next
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}

/// Why a CSV file was refused whole.
public enum ImportError: Error, Equatable, Sendable {
    case empty
    case unknownHeader(String)
    /// Every date could be day first or month first (`03/04/2024`), and no option said which.
    case dateOrderUnclear
    /// A JSON file of a known format whose text cannot be read (`reason` says where).
    case unreadableJSON(String)
    /// The file does not say the unit of its weights, the readings do not tell, and no option said.
    case unitUnclear

}
