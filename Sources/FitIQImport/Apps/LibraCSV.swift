import FitIQCore

/// Libra's CSV (Android), versions 5 and 6: `#Version:` and `#Units:` lines, then `#date;weight;…`,
/// `;`-separated; the units come from the `#Units:` line, and the trend columns are not readings.
enum LibraCSV {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, preamble in
                let saidLibra = preamble.contains { $0.hasPrefix("#version") || $0.hasPrefix("#units:") }
                return columns.first == "date" && columns.contains("weight")
                    && (saidLibra || columns.contains("weight trend")) ? columns : nil
            },
            columnsRead: ["date", "weight", "body fat"],
            rows: { options, preamble in
                var options = options
                if options.unit == nil, let units = preamble.first(where: { $0.hasPrefix("#units:") }) {
                    options.unit = units.contains("lb") ? "lb" : "kg"
                }
                return RowByRow { [options] row, line, file in LibraCSV.read(row, line, options, &file) }
            }))

    static func read(_ row: [String: String], _ line: Int, _ options: ImportOptions, _ file: inout FileReadings) {
        let text = row["date"] ?? ""
        guard let at = RFC3339.parse(text.trimmingWhitespace()) ?? WrittenTime.localTime(text, zone: options.zone)
        else { return file.refuse(line, .time) }
        let factor = options.pounds ? FileReadings.kilogramsPerPound : 1
        file.add(.weight, row["weight"] ?? "", factor: factor, at: at, line: line)
        if let fat = row["body fat"], let value = FileReadings.number(fat), value > 0 {
            file.add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }
}
