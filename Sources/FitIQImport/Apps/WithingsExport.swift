import FitIQCore

/// Withings Health Mate's export: `weight.csv` (`Date,"Weight (kg)","Fat mass (kg)",…`) and
/// `height.csv`, local times without a zone; the fat is a mass, so body fat is fat mass ÷ weight.
enum WithingsExport {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in
                let has = { columns.contains($0) }
                return columns.first == "date"
                    && (has("weight (kg)") || has("weight (lb)") || has("height (m)") || has("height (cm)"))
                    ? columns : nil
            },
            columnsRead: [
                "date", "weight (kg)", "weight (lb)", "fat mass (kg)", "fat mass (lb)", "height (m)", "height (cm)",
            ],
            rows: { options, _ in RowByRow { row, line, file in WithingsExport.read(row, line, options, &file) } }))

    static func read(_ row: [String: String], _ line: Int, _ options: ImportOptions, _ file: inout FileReadings) {
        guard let at = WrittenTime.localTime(row["date"] ?? "", zone: options.zone) else {
            return file.refuse(line, .time)
        }
        let (weightText, factor) =
            row["weight (lb)"].map { ($0, FileReadings.kilogramsPerPound) } ?? (row["weight (kg)"] ?? "", 1)
        if !weightText.trimmingWhitespace().isEmpty {
            file.add(.weight, weightText, factor: factor, at: at, line: line)
            let fat = FileReadings.number(row["fat mass (kg)"] ?? row["fat mass (lb)"] ?? "")
            if let fat, fat > 0, let weight = FileReadings.number(weightText), weight > 0 {
                file.add(.bodyFat, DecimalText.format(fat / weight * 100, places: 2), factor: 1, at: at, line: line)
            }
        }
        if let metres = row["height (m)"], !metres.trimmingWhitespace().isEmpty {
            file.add(.height, metres, factor: 100, at: at, line: line)
        } else if let centimetres = row["height (cm)"], !centimetres.trimmingWhitespace().isEmpty {
            file.add(.height, centimetres, factor: 1, at: at, line: line)
        }
    }
}
