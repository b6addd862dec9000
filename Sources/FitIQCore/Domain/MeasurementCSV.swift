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
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var rule: String
        public var description: String { "line \(line): \(rule)" }
    }

    public var format: Format
    public var readings: [Reading]
    public var problems: [Problem]
    /// Columns read and left out (openScale's water, muscle, …).
    public var skippedColumns: [String]
    /// Rows left out on purpose (BMI rows of an export: BMI is derived, never imported).
    public var derivedRowsSkipped: Int

    /// The separators a header may use, tried in this order.
    static let separators: [Character] = [",", ";", "\t"]

    /// Reads `text` (UTF-8; a byte-order mark and CRLF line ends are fine). `unit` is the unit of a
    /// `date,weight` file's weights (kg when `nil`); dates without a time are logged at 12:00 in `zone`.
    public static func read(_ text: String, unit: String? = nil, zone: LocalZone) throws(ImportError) -> MeasurementCSV
    {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        var lines = Self.records(body)
        guard let header = lines.first else { throw .empty }
        lines.removeFirst()
        let separator = separators.max { Self.split(header.text, $0).count < Self.split(header.text, $1).count } ?? ","
        let columns = Self.split(header.text, separator).map { $0.trimmingWhitespace().lowercased() }
        var csv: MeasurementCSV
        if columns == ["logged_at", "metric", "value", "unit", "source", "id"] {
            csv = MeasurementCSV(format: .fitiq, readings: [], problems: [], skippedColumns: [], derivedRowsSkipped: 0)
        } else if columns.first == "datetime", columns.contains("weight") {
            let used: Set = ["datetime", "weight", "fat"]
            csv = MeasurementCSV(
                format: .openScale, readings: [], problems: [], skippedColumns: columns.filter { !used.contains($0) },
                derivedRowsSkipped: 0)
        } else if columns == ["date", "weight"] {
            csv = MeasurementCSV(
                format: .dateWeight, readings: [], problems: [], skippedColumns: [], derivedRowsSkipped: 0)
        } else {
            throw .unknownHeader(TextSanitizer.sanitize(String(header.text.prefix(120))))
        }
        let pounds = unit.map { ["lb", "lbs"].contains($0.lowercased()) } ?? false
        for record in lines where !record.text.trimmingWhitespace().isEmpty {
            let fields = Self.split(record.text, separator)
            guard fields.count == columns.count else {
                csv.problems.append(
                    Problem(line: record.line, rule: "has \(fields.count) fields; the header has \(columns.count)"))
                continue
            }
            let row = Dictionary(zip(columns, fields), uniquingKeysWith: { first, _ in first })
            switch csv.format {
            case .fitiq: csv.readFitiq(row, line: record.line)
            case .openScale: csv.readOpenScale(row, line: record.line, zone: zone)
            case .dateWeight:
                guard let at = Self.date(row["date"] ?? "", zone: zone) else {
                    csv.problems.append(Problem(line: record.line, rule: "date must be YYYY-MM-DD"))
                    continue
                }
                csv.add(.weight, row["weight"] ?? "", factor: pounds ? 0.453_592_37 : 1, at: at, line: record.line)
            }
        }
        return csv
    }

    private mutating func readFitiq(_ row: [String: String], line: Int) {
        let type = row["metric"] ?? ""
        if type == "bmi" {
            derivedRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else {
            problems.append(Problem(line: line, rule: "metric must be height, weight or body_fat_percentage"))
            return
        }
        guard let at = RFC3339.parse(row["logged_at"] ?? "") else {
            problems.append(Problem(line: line, rule: "logged_at must be an RFC 3339 time"))
            return
        }
        let unit = row["unit"] ?? ""
        let factors: [String: Double] = ["cm": 1, "kg": 1, "%": 1, "in": 2.54, "lb": 0.453_592_37]
        guard let factor = factors[unit], unit == metric.unit || metric.value(1, in: .imperial).unit == unit else {
            problems.append(
                Problem(
                    line: line,
                    rule: "unit \(TextSanitizer.sanitize(unit)) is not one of \(metric.field.label.lowercased())'s"))
            return
        }
        add(metric, row["value"] ?? "", factor: factor, at: at, line: line)
        if readings.last?.line == line {
            readings[readings.count - 1].source = ProgressEntry.Source(rawValue: row["source"] ?? "")
        }
    }

    private mutating func readOpenScale(_ row: [String: String], line: Int, zone: LocalZone) {
        guard let at = Self.openScaleDate(row["datetime"] ?? "", zone: zone) else {
            problems.append(Problem(line: line, rule: "dateTime must be dd.MM.yyyy HH:mm"))
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
            problems.append(Problem(line: line, rule: "\(metric.field.label) must be a number"))
            return
        }
        let value = (number * factor * 100).rounded() / 100
        do throws(ValidationError) {
            try metric.check(value)
            readings.append(Reading(metric: metric, value: value, loggedAt: at, line: line))
        } catch {
            problems.append(Problem(line: line, rule: error.description))
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

    /// The file's records: lines, except inside quotes, with the line number each starts on. Read
    /// byte by byte: every byte the rules look at (quote, line feed, separators) is ASCII, so a
    /// 100 MB line costs a pass over its bytes, not over its characters.
    static func records(_ text: Substring) -> [(text: Substring, line: Int)] {
        var records: [(text: Substring, line: Int)] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var quoted = false
        var line = 1
        var startLine = 1
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                quoted.toggle()
            case UInt8(ascii: "\n"):
                line += 1
                if !quoted {
                    records.append((text[start..<index], startLine))
                    start = bytes.index(after: index)
                    startLine = line
                }
            default:
                break
            }
            index = bytes.index(after: index)
        }
        if start < bytes.endIndex { records.append((text[start...], startLine)) }
        return records
    }

    /// One record's fields, with RFC 4180 quotes (`""` inside a quoted field is one quote); a carriage
    /// return outside quotes (a CRLF line end) is dropped.
    static func split(_ record: Substring, _ separator: Character) -> [String] {
        let separator = separator.asciiValue ?? UInt8(ascii: ",")
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        let bytes = record.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index = bytes.index(after: next)
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
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case unknownHeader(String)

    public var description: String {
        switch self {
        case .empty: "The file is empty: it has no header."
        case .unknownHeader(let header):
            "The header \"\(header)\" is not one of the formats read: "
                + [MeasurementCSV.Format.fitiq, .openScale, .dateWeight].map(\.rawValue).joined(separator: "; ") + "."
        }
    }
}
