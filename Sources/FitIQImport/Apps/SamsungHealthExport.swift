import FitIQCore
import FitIQLocalization

/// Samsung Health's `com.samsung.health.weight.<ts>.csv`: a line of metadata, then the header (its
/// columns may be prefixed `com.samsung.health.weight.`); `start_time` is UTC (`time_offset` only says
/// the local offset it was taken at).
extension ExportFormat {
    static let samsungHealth = ExportFormat(
        name: "samsung-health", source: .samsungHealth, readsLocalTimes: false,
        described: { tr("Samsung Health's export (com.samsung.health.weight.*.csv)") },
        layout: .table(
            TableLayout(
                recognise: { columns, _ in
                    let named = columns.map {
                        $0.hasPrefix(SamsungHealthExport.prefix)
                            ? String($0.dropFirst(SamsungHealthExport.prefix.count)) : $0
                    }
                    return named.contains("start_time") && named.contains("weight") ? named : nil
                },
                columnsRead: ["start_time", "time_offset", "weight", "body_fat"],
                rows: { _, _ in RowByRow(readRow: SamsungHealthExport.read) })))
}

enum SamsungHealthExport {
    static let prefix = "com.samsung.health.weight."

    static func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
        guard let at = WrittenTime.localTime(row["start_time"] ?? "", zone: .utc) else {
            return file.refuse(line, .time)
        }
        file.add(.weight, row["weight"] ?? "", factor: 1, at: at, line: line)
        if let fat = row["body_fat"], let value = FileReadings.number(fat), value > 0 {
            file.add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }
}
