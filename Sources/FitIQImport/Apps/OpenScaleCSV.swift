import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// openScale's export (Android): `"dateTime","weight","fat",…`, local times `dd.MM.yyyy HH:mm`; 0.0 is
/// no value.
enum OpenScaleCSV {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, _ in columns.first == "datetime" && columns.contains("weight") ? columns : nil },
            columnsRead: ["datetime", "weight", "fat"],
            rows: { options, _ in RowByRow { row, line, file in OpenScaleCSV.read(row, line, options, &file) } }))

    static func read(_ row: [String: String], _ line: Int, _ options: ImportOptions, _ file: inout FileReadings) {
        guard let at = date(row["datetime"] ?? "", zone: options.zone) else {
            return file.refuse(line, .writtenAs(column: "dateTime", pattern: "dd.MM.yyyy HH:mm"))
        }
        for (column, metric) in [("weight", Metric.weight), ("fat", Metric.bodyFat)] {
            // 0.0 means "no value" in openScale's export.
            guard let text = row[column], Double(text.trimmingWhitespace()) != 0 else { continue }
            file.add(metric, text, factor: 1, at: at, line: line)
        }
    }

    /// `dd.MM.yyyy HH:mm`, local time.
    static func date(_ text: String, zone: LocalZone) -> Date? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?<d>\d{2})\.(?<m>\d{2})\.(?<y>\d{4})\s+(?<h>\d{2}):(?<min>\d{2})/),
            let day = CalendarDate(parsing: "\(match.y)-\(match.m)-\(match.d)")
        else { return nil }
        return WrittenTime.time(on: day, hour: Int(match.h), minute: Int(match.min), second: 0, zone)
    }
}
