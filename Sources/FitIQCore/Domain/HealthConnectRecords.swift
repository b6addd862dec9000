#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The records of Android Health Connect's export database, as the adapter reads them from its
/// tables (`weight_record_table.weight` in grams, `body_fat_record_table.percentage`,
/// `height_record_table.height` in metres; `time` in milliseconds since 1970, UTC). Turning them into
/// readings is pure: no SQLite here.
public struct HealthConnectRecord: Sendable, Equatable {
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

extension MeasurementCSV {
    /// Readings of Health Connect's `records`; a record without a value or a time is named by its row.
    public static func healthConnect(_ records: [HealthConnectRecord]) -> MeasurementCSV {
        var file = MeasurementCSV(format: .healthConnect)
        for record in records {
            let metric = record.table.metric
            // Years 1 to 9999: a larger number is no time.
            guard let milliseconds = record.milliseconds, abs(milliseconds) < 250_000_000_000_000 else {
                file.problems.append(Problem(line: record.row, rule: .time, isEntry: true, file: record.table.rawValue))
                continue
            }
            guard let value = record.value else {
                file.problems.append(
                    Problem(line: record.row, rule: .number(metric), isEntry: true, file: record.table.rawValue))
                continue
            }
            let at = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            file.add(metric, String(value), factor: record.table.factor, at: at, line: record.row, isEntry: true)
        }
        return file
    }
}
