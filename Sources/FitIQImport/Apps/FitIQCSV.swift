import FitIQCore

/// fitiq-tui's own export (`export --csv`): `logged_at,metric,value,unit,source,id,notes` (`notes`
/// since 0.7, `trend` with `--trend`), one entry a row of any metric, in the row's unit, the source it
/// came from and its note (read as ``FitIQExport`` says).
enum FitIQCSV {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in FitIQCSV.recognise(columns) }, columnsRead: nil,
            rows: { _, _ in RowByRow(readRow: FitIQCSV.read) }))

    static let header = ["logged_at", "metric", "value", "unit", "source", "id"]

    /// The header of an export: ``header``, then the columns later versions and options add.
    static func recognise(_ columns: [String]) -> [String]? {
        guard columns.starts(with: header) else { return nil }
        let rest = columns.dropFirst(header.count)
        return rest.allSatisfy({ $0 == "notes" || $0 == "trend" }) && Set(rest).count == rest.count ? columns : nil
    }

    static func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
        let entry = FitIQExport.Entry(
            metric: row["metric"], loggedAt: row["logged_at"], value: FileReadings.number(row["value"] ?? ""),
            unit: row["unit"], source: row["source"], notes: row["notes"])
        FitIQExport.read(entry, line: line, into: &file)
    }
}
