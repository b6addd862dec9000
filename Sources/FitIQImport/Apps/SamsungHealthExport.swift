import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Samsung Health's CSV export folder: each file a line of metadata (the data type, `com.samsung.…,id,n`),
/// then the header, whose columns may be prefixed with the data type (`com.samsung.health.weight.`).
/// Times are UTC (`start_time`); `time_offset` (`UTC+0100`) says the local clock they were taken on.
/// - `com.samsung.health.weight.*.csv`: `weight`, `body_fat`.
/// - `com.samsung.shealth.step_daily_trend.*.csv`: a row a day per device (`deviceuuid`) and one with
///   the devices combined (`source_type` -2); `day_time` is the local day, at UTC midnight. Only the
///   combined row of a day is read when there is one, else each device's, the one with the most standing.
///   `count` steps, `distance` metres (`calorie` is walking's alone, not the day's energy: not read).
/// - `com.samsung.shealth.sleep.*.csv`: `start_time`, `end_time` of each sleep.
/// - `com.samsung.health.water_intake.*.csv`: `amount` in ml at `start_time`.
enum SamsungHealthExport {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.table(
        TableLayout(
            recognise: { columns, preamble in SamsungHealthExport.recognise(columns, preamble) },
            columnsRead: [
                "start_time", "end_time", "time_offset", "weight", "body_fat", "day_time", "count", "distance",
                "source_type", "deviceuuid", "amount",
            ],
            rows: { options, _ in SamsungHealthExport.Rows(options: options) }))

    /// A column without the data type before it (`com.samsung.health.weight.start_time` is `start_time`).
    static func unprefixed(_ column: String) -> String {
        guard column.hasPrefix("com.samsung."), let dot = column.lastIndex(of: ".") else { return column }
        return String(column[column.index(after: dot)...])
    }

    /// The header's columns, unprefixed, when it is one of the files read.
    static func recognise(_ columns: [String], _ preamble: [String]) -> [String]? {
        let named = columns.map(unprefixed)
        let has = Set(named)
        let type = preamble.first.map { String($0.prefix { $0 != "," }) } ?? ""
        let typed = { (name: String, column: String) in type == name || columns.contains(name + "." + column) }
        if has.contains("start_time") && has.contains("weight") { return named }
        if has.contains("day_time") && has.contains("count") { return named }
        if has.isSuperset(of: ["start_time", "end_time"])
            && (typed("com.samsung.shealth.sleep", "start_time") || typed("com.samsung.health.sleep", "start_time"))
        {
            return named
        }
        if has.isSuperset(of: ["start_time", "amount"]) && typed("com.samsung.health.water_intake", "amount") {
            return named
        }
        return nil
    }

    /// The rows of one file: each read as it comes, but the daily trend's, kept until the end to choose
    /// each day's combined row.
    struct Rows: TableRows {
        let options: ImportOptions
        /// The daily trend: a day's rows by device (`-2`: the devices combined), the largest count of each.
        var days: [Int: [String: Trend]] = [:]

        struct Trend {
            var steps: Double
            var metres: Double
            var line: Int
        }

        static let combined = "-2"

        mutating func read(_ row: [String: String], line: Int, into file: inout FileReadings) {
            if row["weight"] != nil {
                SamsungHealthExport.weight(row, line: line, into: &file)
            } else if let day = row["day_time"] {
                trend(row, day: day, line: line, into: &file)
            } else if let amount = row["amount"] {
                guard let at = instant(row, "start_time", line: line, into: &file) else { return }
                guard let millilitres = FileReadings.number(amount) else {
                    return file.refuse(line, .number(.water))
                }
                file.addSample(
                    .water, millilitres / 1000, at: at, stream: row["deviceuuid"] ?? "", line: line, isEntry: false)
            } else {
                guard let start = instant(row, "start_time", line: line, into: &file),
                    let end = instant(row, "end_time", line: line, into: &file)
                else { return }
                file.addAsleep(from: start.at, to: end, stream: row["deviceuuid"] ?? "", line: line, isEntry: false)
            }
        }

        /// The time of `column` on the clock of the row's `time_offset` (else the options' zone); a bad
        /// row when there is none.
        func instant(_ row: [String: String], _ column: String, line: Int, into file: inout FileReadings)
            -> LocalInstant?
        {
            guard let at = WrittenTime.localTime(row[column] ?? "", zone: .utc) else {
                file.refuse(line, .time)
                return nil
            }
            if let offset = row["time_offset"].flatMap(ActivityTime.offset) {
                return LocalInstant(at, offsetSeconds: offset)
            }
            return LocalInstant(at, in: options.zone)
        }

        mutating func trend(_ row: [String: String], day text: String, line: Int, into file: inout FileReadings) {
            let day: Int
            if let milliseconds = FileReadings.number(text), let at = WrittenTime.milliseconds(milliseconds) {
                day = Int((at.timeIntervalSince1970 / 86_400).rounded(.down))
            } else if let at = WrittenTime.localTime(text, zone: .utc) {
                day = Int((at.timeIntervalSince1970 / 86_400).rounded(.down))
            } else {
                return file.refuse(line, .time)
            }
            guard let steps = FileReadings.number(row["count"] ?? "") else { return file.refuse(line, .number(.steps)) }
            let distance = row["distance"].map { $0.trimmingWhitespace().isEmpty ? "0" : $0 } ?? "0"
            guard let metres = FileReadings.number(distance) else { return file.refuse(line, .number(.distance)) }
            let source =
                row["source_type"]?.trimmingWhitespace() == Self.combined ? Self.combined : row["deviceuuid"] ?? ""
            if let kept = days[day]?[source], kept.steps >= steps { return }
            days[day, default: [:]][source] = Trend(steps: steps, metres: metres, line: line)
        }

        mutating func finish(into file: inout FileReadings) throws(ImportError) {
            for (day, sources) in days.sorted(by: { $0.key < $1.key }) {
                let at = ActivityTime.noon(CalendarDate(daysSince1970: day), zone: options.zone)
                let read = sources[Self.combined].map { [(Self.combined, $0)] } ?? sources.sorted { $0.key < $1.key }
                for (source, trend) in read {
                    let stream = source == Self.combined ? "combined" : source
                    file.addSample(.steps, trend.steps, at: at, stream: stream, line: trend.line, isEntry: false)
                    file.addSample(
                        .distance, trend.metres / 1000, at: at, stream: stream, line: trend.line, isEntry: false)
                }
            }
            days = [:]
        }
    }

    static func weight(_ row: [String: String], line: Int, into file: inout FileReadings) {
        guard let at = WrittenTime.localTime(row["start_time"] ?? "", zone: .utc) else {
            return file.refuse(line, .time)
        }
        file.add(.weight, row["weight"] ?? "", factor: 1, at: at, line: line)
        if let fat = row["body_fat"], let value = FileReadings.number(fat), value > 0 {
            file.add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }
}
