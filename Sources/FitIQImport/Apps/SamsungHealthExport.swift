import FitIQCore

/// Samsung Health's `com.samsung.health.weight.<ts>.csv`: a line of metadata, then the header (its
/// columns may be prefixed `com.samsung.health.weight.`); `start_time` is UTC (`time_offset` only says
/// the local offset it was taken at).
enum SamsungHealthExport {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in
                let named = columns.map {
                    $0.hasPrefix(SamsungHealthExport.prefix)
                        ? String($0.dropFirst(SamsungHealthExport.prefix.count)) : $0
                }
                return named.contains("start_time") && named.contains("weight") ? named : nil
            },
            columnsRead: ["start_time", "time_offset", "weight", "body_fat"],
            rows: { _, _ in RowByRow(readRow: SamsungHealthExport.read) }))

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
