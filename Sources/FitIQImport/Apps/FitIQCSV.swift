import FitIQCore

/// fitiq-tui's own export (`export --csv`): `logged_at,metric,value,unit,source,id`, one reading a row
/// in UTC, the unit of the row's, the source it came from.
enum FitIQCSV {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in columns == FitIQCSV.header ? columns : nil }, columnsRead: nil,
            rows: { _, _ in RowByRow(readRow: FitIQCSV.read) }))

    static let header = ["logged_at", "metric", "value", "unit", "source", "id"]

    static func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
        let type = row["metric"] ?? ""
        if type == "bmi" {
            file.derivedRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else { return file.refuse(line, .metricType) }
        guard let at = RFC3339.parse(row["logged_at"] ?? "") else { return file.refuse(line, .loggedAt) }
        let unit = row["unit"] ?? ""
        let factors: [String: Double] = [
            "cm": 1, "kg": 1, "%": 1, "in": 2.54, "lb": FileReadings.kilogramsPerPound,
        ]
        guard let factor = factors[unit], unit == metric.unit || metric.value(1, in: .imperial).unit == unit else {
            return file.refuse(line, .unit(unit, of: metric))
        }
        file.add(metric, row["value"] ?? "", factor: factor, at: at, line: line)
        if file.readings.last?.line == line {
            file.readings[file.readings.count - 1].source = ProgressEntry.Source(rawValue: row["source"] ?? "")
        }
    }
}
