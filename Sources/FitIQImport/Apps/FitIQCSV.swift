import FitIQCore

/// fitiq-tui's own export (`export --csv`): `logged_at,metric,value,unit,source,id,notes` (`notes`
/// since 0.7, `trend` with `--trend`), one entry a row of any metric, in the row's unit, the source it
/// came from and its note.
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
        let type = row["metric"] ?? ""
        if type == "bmi" {
            file.derivedRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else { return file.refuse(line, .metricType) }
        guard let at = RFC3339.parse(row["logged_at"] ?? "") else { return file.refuse(line, .loggedAt) }
        let unit = row["unit"] ?? ""
        // The metric's unit, or its imperial one (as `--units imperial` writes it).
        guard let factor = unit == metric.unit ? 1 : metric.imperial.flatMap({ $0.unit == unit ? $0.size : nil }) else {
            return file.refuse(line, .unit(unit, of: metric))
        }
        file.add(metric, row["value"] ?? "", factor: factor, at: at, line: line)
        if file.readings.last?.line == line {
            file.readings[file.readings.count - 1].source = ProgressEntry.Source(rawValue: row["source"] ?? "")
            let notes = TextSanitizer.sanitize(row["notes"] ?? "")
            file.readings[file.readings.count - 1].notes =
                notes.isEmpty ? nil : String(notes.prefix(ProfileRules.notesLimit))
        }
    }
}
