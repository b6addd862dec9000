#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Measurements read from a CSV file: fitiq-tui's own export, openScale's export, wger's weight
/// export, or a plain `date,weight` file. The header decides which; every bad row is named by its
/// line (the header is line 1) and the rule it breaks.
public struct MeasurementCSV: Sendable, Equatable {
    /// The formats read, as the refusal of an unknown header names them.
    public enum Format: String, Sendable, Equatable {
        case fitiq = "fitiq-tui's export (logged_at,metric,value,unit,source,id)"
        case openScale = "openScale's export (\"dateTime\",\"weight\",\"fat\",…)"
        case dateWeight = "wger's weight export or a plain file (date,weight)"
    }

    /// One reading, with the line it came from.
    public struct Reading: Sendable, Equatable {
        public var metric: Metric
        /// In the metric's unit (cm, kg, %), to a hundredth.
        public var value: Double
        public var loggedAt: Date
        public var line: Int
        /// Where the file says the reading came from (fitiq-tui's own export), if it says.
        public var source: ProgressEntry.Source? = nil
    }

    /// A row that breaks a rule.
    public struct Problem: Sendable, Equatable {
        public var line: Int
        public var rule: Rule
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
    }

    public var format: Format
    public var readings: [Reading]
    public var problems: [Problem]
    /// Columns read and left out (openScale's water, muscle, …).
    public var skippedColumns: [String]
    /// Rows left out on purpose (BMI rows of an export: BMI is derived, never imported).
    public var derivedRowsSkipped: Int

    /// The separators a header may use, tried in this order.
    static let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// The longest row read: every format's rows are a few dozen bytes.
    public static let maximumRowBytes = 4_096

    /// Reads `text` whole (``Reader`` reads a file in pieces).
    public static func read(_ text: String, unit: String? = nil, zone: LocalZone) throws(ImportError) -> MeasurementCSV
    {
        var reader = Reader(unit: unit, zone: zone)
        try reader.read(text.utf8)
        return try reader.finish()
    }

    /// Reads a CSV file as its bytes arrive, one row at a time: memory holds at most
    /// ``MeasurementCSV/maximumRowBytes`` of a row, however long the file or its lines. UTF-8 (a
    /// byte-order mark and CRLF line ends are fine), RFC 4180 quotes, and the separator `,`, `;` or
    /// tab that the header has most of. `unit` is the unit of a `date,weight` file's weights (kg when
    /// `nil`); dates without a time are logged at 12:00 in `zone`.
    public struct Reader: Sendable {
        private let pounds: Bool
        private let zone: LocalZone
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
            pounds = unit.map { ["lb", "lbs"].contains($0.lowercased()) } ?? false
            self.zone = zone
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

        /// What the file held, once every byte is read.
        public mutating func finish() throws(ImportError) -> MeasurementCSV {
            if !row.isEmpty || rowTooLong { try endRow() }
            guard let csv else { throw .empty }
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
            let fields = MeasurementCSV.split(row, separator)
            guard fields.count == columns.count else {
                csv.problems.append(
                    Problem(
                        line: rowLine,
                        rule: .fieldCount(fields: fields.count, columns: columns.count)))
                return
            }
            let named = Dictionary(zip(columns, fields)) { first, _ in first }
            csv.readRow(named, line: rowLine, pounds: pounds, zone: zone)
        }

        private mutating func readHeader() throws(ImportError) {
            var header = row[...]
            if header.starts(with: [0xEF, 0xBB, 0xBF]) { header = header.dropFirst(3) }
            guard !rowTooLong, let text = String(validating: header, as: UTF8.self) else {
                throw .unknownHeader(TextSanitizer.sanitize(String(decoding: header.prefix(120), as: UTF8.self)))
            }
            separator =
                MeasurementCSV.separators.max {
                    MeasurementCSV.split(header, $0).count < MeasurementCSV.split(header, $1).count
                } ?? UInt8(ascii: ",")
            columns = MeasurementCSV.split(header, separator).map { $0.trimmingWhitespace().lowercased() }
            let format: Format
            var skipped: [String] = []
            if columns == ["logged_at", "metric", "value", "unit", "source", "id"] {
                format = .fitiq
            } else if columns.first == "datetime", columns.contains("weight") {
                format = .openScale
                skipped = columns.filter { !["datetime", "weight", "fat"].contains($0) }
            } else if columns == ["date", "weight"] {
                format = .dateWeight
            } else {
                throw .unknownHeader(TextSanitizer.sanitize(String(text.prefix(120))))
            }
            csv = MeasurementCSV(
                format: format, readings: [], problems: [], skippedColumns: skipped, derivedRowsSkipped: 0)
        }
    }

    /// One row of the file's format, as fields by column.
    private mutating func readRow(_ row: [String: String], line: Int, pounds: Bool, zone: LocalZone) {
        switch format {
        case .fitiq: readFitiq(row, line: line)
        case .openScale: readOpenScale(row, line: line, zone: zone)
        case .dateWeight:
            guard let at = Self.date(row["date"] ?? "", zone: zone) else {
                problems.append(Problem(line: line, rule: .day))
                return
            }
            add(.weight, row["weight"] ?? "", factor: pounds ? 0.453_592_37 : 1, at: at, line: line)
        }
    }

    private mutating func readFitiq(_ row: [String: String], line: Int) {
        let type = row["metric"] ?? ""
        if type == "bmi" {
            derivedRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else {
            problems.append(Problem(line: line, rule: .metricType))
            return
        }
        guard let at = RFC3339.parse(row["logged_at"] ?? "") else {
            problems.append(Problem(line: line, rule: .loggedAt))
            return
        }
        let unit = row["unit"] ?? ""
        let factors: [String: Double] = ["cm": 1, "kg": 1, "%": 1, "in": 2.54, "lb": 0.453_592_37]
        guard let factor = factors[unit], unit == metric.unit || metric.value(1, in: .imperial).unit == unit else {
            problems.append(
                Problem(
                    line: line,
                    rule: .unit(unit, of: metric)))
            return
        }
        add(metric, row["value"] ?? "", factor: factor, at: at, line: line)
        if readings.last?.line == line {
            readings[readings.count - 1].source = ProgressEntry.Source(rawValue: row["source"] ?? "")
        }
    }

    private mutating func readOpenScale(_ row: [String: String], line: Int, zone: LocalZone) {
        guard let at = Self.openScaleDate(row["datetime"] ?? "", zone: zone) else {
            problems.append(Problem(line: line, rule: .openScaleTime))
            return
        }
        for (column, metric) in [("weight", Metric.weight), ("fat", Metric.bodyFat)] {
            // 0.0 means "no value" in openScale's export.
            guard let text = row[column], Double(text.trimmingWhitespace()) != 0 else { continue }
            add(metric, text, factor: 1, at: at, line: line)
        }
    }

    private mutating func add(_ metric: Metric, _ text: String, factor: Double, at: Date, line: Int) {
        // No reading needs more than a few digits: a longer field is not looked at character by character.
        let trimmed = text.utf8.count <= 64 ? text.trimmingWhitespace().replacing(",", with: ".") : ""
        guard let number = Double(trimmed), number.isFinite else {
            problems.append(Problem(line: line, rule: .number(metric)))
            return
        }
        let value = (number * factor * 100).rounded() / 100
        do throws(ValidationError) {
            try metric.check(value)
            readings.append(Reading(metric: metric, value: value, loggedAt: at, line: line))
        } catch {
            problems.append(Problem(line: line, rule: .value(error)))
        }
    }

    /// `YYYY-MM-DD` at 12:00 in `zone`, or an RFC 3339 time.
    static func date(_ text: String, zone: LocalZone) -> Date? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.count == 10, let day = CalendarDate(parsing: trimmed) { return day.instant(atHour: 12, in: zone) }
        return RFC3339.parse(trimmed)
    }

    /// openScale's `dd.MM.yyyy HH:mm`, local time.
    static func openScaleDate(_ text: String, zone: LocalZone) -> Date? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?<d>\d{2})\.(?<m>\d{2})\.(?<y>\d{4})\s+(?<h>\d{2}):(?<min>\d{2})/),
            let day = CalendarDate(parsing: "\(match.y)-\(match.m)-\(match.d)"), let hour = Int(match.h),
            let minute = Int(match.min), hour < 24, minute < 60
        else { return nil }
        let noon = day.instant(atHour: 12, in: zone)
        return noon.addingTimeInterval(Double((hour - 12) * 3_600 + minute * 60))
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

}
