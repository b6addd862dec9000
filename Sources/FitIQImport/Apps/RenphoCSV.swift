import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renpho's CSV: `Date, Time, Weight(kg), BMI, Body Fat(%),…`; `--` is a value the scale did not
/// measure. Whether `03/04/2024` is 3 April or 4 March is told by the first row that settles it, so
/// rows wait until one does; the option's order is taken only for a file where none does.
struct RenphoCSV: TableRows {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in
                let has = { columns.contains($0) }
                return has("date") && has("time") && (has("weight(kg)") || has("weight(lb)")) ? columns : nil
            },
            columnsRead: ["date", "time", "weight(kg)", "weight(lb)", "body fat(%)"],
            rows: { options, _ in RenphoCSV(options: options) }))

    let options: ImportOptions
    /// The order of day and month, once a row told it.
    var dateOrder: DateOrder?
    /// Rows whose dates wait for a row that tells the order of day and month.
    var undated: [(fields: [String: String], line: Int)] = []

    mutating func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
        let parts = WrittenTime.dateParts(row["date"] ?? "")
        if dateOrder == nil, let parts, !parts.isYearFirst {
            if parts.first > 12 { dateOrder = .dayFirst } else if parts.second > 12 { dateOrder = .monthFirst }
        }
        guard let order = dateOrder ?? (parts?.isYearFirst == true ? .dayFirst : nil) else {
            undated.append((row, line))
            return
        }
        let waiting = undated
        undated = []
        for earlier in waiting { readRow(earlier.fields, line: earlier.line, order: order, into: &file) }
        readRow(row, line: line, order: order, into: &file)
    }

    /// Reads the rows that waited for the order of day and month; throws when no row told it and no
    /// option did.
    mutating func finish(into file: inout FileReadings) throws(ImportError) {
        guard !undated.isEmpty else { return }
        guard let order = dateOrder ?? options.dateOrder else { throw .dateOrderUnclear }
        let waiting = undated
        undated = []
        for row in waiting { readRow(row.fields, line: row.line, order: order, into: &file) }
        file.readings.sort { $0.line < $1.line }
    }

    private func readRow(_ row: [String: String], line: Int, order: DateOrder, into file: inout FileReadings) {
        guard let parts = WrittenTime.dateParts(row["date"] ?? ""),
            let at = Self.time(parts, order: order, time: row["time"] ?? "", zone: options.zone)
        else { return file.refuse(line, .time) }
        let (weightText, factor) =
            row["weight(lb)"].map { ($0, FileReadings.kilogramsPerPound) } ?? (row["weight(kg)"] ?? "", 1)
        if weightText.trimmingWhitespace() != "--" { file.add(.weight, weightText, factor: factor, at: at, line: line) }
        if let fat = row["body fat(%)"], !["--", ""].contains(fat.trimmingWhitespace()) {
            file.add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }

    private static func time(_ parts: WrittenTime.DateParts, order: DateOrder, time: String, zone: LocalZone)
        -> Date?
    {
        let (day, month) =
            parts.isYearFirst || order == .dayFirst ? (parts.first, parts.second) : (parts.second, parts.first)
        guard let date = WrittenTime.day(year: parts.year, month: month, day: day),
            let match = time.trimmingWhitespace().wholeMatch(
                of: /(?<h>\d{1,2}):(?<min>\d{2})(?::(?<s>\d{2}))?\s*(?<ampm>[AaPp][Mm])?/),
            var hour = Int(match.h)
        else { return nil }
        if let ampm = match.ampm?.lowercased() {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (ampm == "pm" ? 12 : 0)
        }
        return WrittenTime.time(
            on: date, hour: hour, minute: Int(match.min), second: match.s.flatMap { Int($0) } ?? 0, zone)
    }
}
