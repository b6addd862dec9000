import FitIQCore

/// wger's weight export, or any plain `date,weight` file: a day (at noon, local time) or an RFC 3339
/// time, and a weight in kg unless the options say lb.
enum WgerCSV {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in columns == ["date", "weight"] ? columns : nil }, columnsRead: nil,
            rows: { options, _ in
                RowByRow { row, line, file in
                    guard let at = WrittenTime.date(row["date"] ?? "", zone: options.zone) else {
                        return file.refuse(line, .day)
                    }
                    let factor = options.pounds ? FileReadings.kilogramsPerPound : 1
                    file.add(.weight, row["weight"] ?? "", factor: factor, at: at, line: line)
                }
            }))
}
