import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The records of Health Connect's database, as the adapter reads them from its tables; turning them
/// into readings is pure (no SQLite).
/// Android Health Connect's export: a SQLite database (alone, or in a zip). Its tables
/// `weight_record_table.weight` (grams), `body_fat_record_table.percentage` and
/// `height_record_table.height` (metres), each with `time` in milliseconds since 1970, UTC.
public enum HealthConnectDatabase {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.database(
        DatabaseLayout(read: { path, format in
            let queries = HealthConnectDatabase.Table.allCases.map {
                "SELECT \($0.valueColumn), time FROM \($0.rawValue) ORDER BY time"
            }
            guard let tables = try LibSQLite3.load().valuesAndTimes(at: path, queries: queries) else { return nil }
            let records = zip(HealthConnectDatabase.Table.allCases, tables).flatMap { table, rows in
                rows.enumerated().map { index, row in
                    HealthConnectDatabase.Record(
                        table: table, row: index + 1, value: row.value, milliseconds: row.time)
                }
            }
            var file = format.emptyReadings()
            HealthConnectDatabase.read(records, into: &file)
            return file
        }))

    /// The table a record comes from, and what its value is.
    public enum Table: String, Sendable, CaseIterable {
        case weight = "weight_record_table"
        case bodyFat = "body_fat_record_table"
        case height = "height_record_table"

        /// The column holding the value.
        public var valueColumn: String {
            switch self {
            case .weight: "weight"
            case .bodyFat: "percentage"
            case .height: "height"
            }
        }

        var metric: Metric {
            switch self {
            case .weight: .weight
            case .bodyFat: .bodyFat
            case .height: .height
            }
        }

        /// What one of the column's units is in the metric's unit.
        var factor: Double {
            switch self {
            case .weight: 0.001
            case .bodyFat: 1
            case .height: 100
            }
        }
    }

    /// One row of a table.
    public struct Record: Sendable, Equatable {
        public var table: Table
        /// The record's row in its table, from 1, for the message that names it.
        public var row: Int
        public var value: Double?
        public var milliseconds: Int64?

        public init(table: Table, row: Int, value: Double?, milliseconds: Int64?) {
            self.table = table
            self.row = row
            self.value = value
            self.milliseconds = milliseconds
        }
    }

    /// Readings of `records`; a record without a value or a time is named by its table and row.
    public static func read(_ records: [Record], into file: inout FileReadings) {
        for record in records {
            let metric = record.table.metric
            guard let milliseconds = record.milliseconds, let at = WrittenTime.milliseconds(Double(milliseconds))
            else {
                file.badRows.append(BadRow(line: record.row, rule: .time, isEntry: true, file: record.table.rawValue))
                continue
            }
            guard let value = record.value else {
                file.badRows.append(
                    BadRow(line: record.row, rule: .number(metric), isEntry: true, file: record.table.rawValue))
                continue
            }
            file.add(metric, String(value), factor: record.table.factor, at: at, line: record.row, isEntry: true)
        }
    }

    /// Readings of `records`, for the fuzz target and the tests.
    public static func readings(of records: [Record]) -> FileReadings {
        var file = ExportFormat.healthConnect.emptyReadings()
        read(records, into: &file)
        return file
    }
}
