#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How each format's rows become readings: the row readers of the importers' table.
extension MeasurementCSV {
    static let kilogramsPerPound = 0.453_592_37

    /// One row of the file's format, as fields by column.
    mutating func readRow(_ row: [String: String], line: Int, _ options: Options) {
        let pounds = options.pounds
        switch format {
        case .fitiq: readFitiq(row, line: line)
        case .openScale: readOpenScale(row, line: line, zone: options.zone)
        case .dateWeight:
            guard let at = Self.date(row["date"] ?? "", zone: options.zone) else {
                problems.append(Problem(line: line, rule: .day))
                return
            }
            add(.weight, row["weight"] ?? "", factor: pounds ? Self.kilogramsPerPound : 1, at: at, line: line)
        case .withings: readWithings(row, line: line, zone: options.zone)
        case .samsungHealth: readSamsung(row, line: line)
        case .libra: readLibra(row, line: line, options)
        case .renpho: readRenpho(row, line: line, options)
        case .fitbit, .googleFit, .garmin, .healthConnect: break  // MeasurementJSON, MeasurementCSV.healthConnect
        }
    }

    private mutating func readFitiq(_ row: [String: String], line: Int) {
        let type = row["metric"] ?? ""
        if type == "bmi" {
            derivedRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else {
            problems.append(Problem(line: line, rule: .metricType))
            return
        }
        guard let at = RFC3339.parse(row["logged_at"] ?? "") else {
            problems.append(Problem(line: line, rule: .loggedAt))
            return
        }
        let unit = row["unit"] ?? ""
        let factors: [String: Double] = ["cm": 1, "kg": 1, "%": 1, "in": 2.54, "lb": Self.kilogramsPerPound]
        guard let factor = factors[unit], unit == metric.unit || metric.value(1, in: .imperial).unit == unit else {
            problems.append(Problem(line: line, rule: .unit(unit, of: metric)))
            return
        }
        add(metric, row["value"] ?? "", factor: factor, at: at, line: line)
        if readings.last?.line == line {
            readings[readings.count - 1].source = ProgressEntry.Source(rawValue: row["source"] ?? "")
        }
    }

    private mutating func readOpenScale(_ row: [String: String], line: Int, zone: LocalZone) {
        guard let at = Self.openScaleDate(row["datetime"] ?? "", zone: zone) else {
            problems.append(Problem(line: line, rule: .openScaleTime))
            return
        }
        for (column, metric) in [("weight", Metric.weight), ("fat", Metric.bodyFat)] {
            // 0.0 means "no value" in openScale's export.
            guard let text = row[column], Double(text.trimmingWhitespace()) != 0 else { continue }
            add(metric, text, factor: 1, at: at, line: line)
        }
    }

    /// Withings: local time without a zone; the fat is a mass, so body fat is fat mass ÷ weight.
    private mutating func readWithings(_ row: [String: String], line: Int, zone: LocalZone) {
        guard let at = Self.localTime(row["date"] ?? "", zone: zone) else {
            problems.append(Problem(line: line, rule: .time))
            return
        }
        let (weightText, factor) =
            row["weight (lb)"].map { ($0, Self.kilogramsPerPound) } ?? (row["weight (kg)"] ?? "", 1)
        if !weightText.trimmingWhitespace().isEmpty {
            add(.weight, weightText, factor: factor, at: at, line: line)
            let fat = Self.number(row["fat mass (kg)"] ?? row["fat mass (lb)"] ?? "")
            if let fat, fat > 0, let weight = Self.number(weightText), weight > 0 {
                add(.bodyFat, DecimalText.format(fat / weight * 100, places: 2), factor: 1, at: at, line: line)
            }
        }
        if let metres = row["height (m)"], !metres.trimmingWhitespace().isEmpty {
            add(.height, metres, factor: 100, at: at, line: line)
        } else if let centimetres = row["height (cm)"], !centimetres.trimmingWhitespace().isEmpty {
            add(.height, centimetres, factor: 1, at: at, line: line)
        }
    }

    /// Samsung Health: `start_time` is UTC (`time_offset` only says the local offset it was taken at).
    private mutating func readSamsung(_ row: [String: String], line: Int) {
        guard let at = Self.localTime(row["start_time"] ?? "", zone: .utc) else {
            problems.append(Problem(line: line, rule: .time))
            return
        }
        add(.weight, row["weight"] ?? "", factor: 1, at: at, line: line)
        if let fat = row["body_fat"], let value = Self.number(fat), value > 0 {
            add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }

    /// Libra: the units come from its `#Units:` line; the trend columns are not readings.
    private mutating func readLibra(_ row: [String: String], line: Int, _ options: Options) {
        let text = row["date"] ?? ""
        guard let at = RFC3339.parse(text.trimmingWhitespace()) ?? Self.localTime(text, zone: options.zone) else {
            problems.append(Problem(line: line, rule: .time))
            return
        }
        add(.weight, row["weight"] ?? "", factor: options.pounds ? Self.kilogramsPerPound : 1, at: at, line: line)
        if let fat = row["body fat"], let value = Self.number(fat), value > 0 {
            add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }

    /// Renpho: `--` is a value the scale did not measure; whether `03/04/2024` is 3 April or 4 March
    /// is told by the first row that settles it, so rows wait until one does. The option's order is
    /// taken only for a file where none does.
    private mutating func readRenpho(_ row: [String: String], line: Int, _ options: Options) {
        let parts = Self.dateParts(row["date"] ?? "")
        if dateOrder == nil, let parts, !parts.isYearFirst {
            if parts.first > 12 { dateOrder = .dayFirst } else if parts.second > 12 { dateOrder = .monthFirst }
        }
        guard let order = dateOrder ?? (parts?.isYearFirst == true ? .dayFirst : nil) else {
            undated.append(UndatedRow(fields: row, line: line))
            return
        }
        let waiting = undated
        undated = []
        for earlier in waiting { readRenphoRow(earlier.fields, line: earlier.line, order: order, options.zone) }
        readRenphoRow(row, line: line, order: order, options.zone)
    }

    private mutating func readRenphoRow(_ row: [String: String], line: Int, order: DateOrder, _ zone: LocalZone) {
        guard let parts = Self.dateParts(row["date"] ?? ""),
            let at = Self.renphoTime(parts, order: order, time: row["time"] ?? "", zone: zone)
        else {
            problems.append(Problem(line: line, rule: .time))
            return
        }
        let (weightText, factor) =
            row["weight(lb)"].map { ($0, Self.kilogramsPerPound) } ?? (row["weight(kg)"] ?? "", 1)
        if weightText.trimmingWhitespace() != "--" { add(.weight, weightText, factor: factor, at: at, line: line) }
        if let fat = row["body fat(%)"], !["--", ""].contains(fat.trimmingWhitespace()) {
            add(.bodyFat, fat, factor: 1, at: at, line: line)
        }
    }

    /// Reads the rows that waited for the order of day and month; throws when no row told it and no
    /// option did.
    mutating func finishDeferred(_ options: Options) throws(ImportError) {
        guard !undated.isEmpty else { return }
        guard let order = dateOrder ?? options.dateOrder else { throw .dateOrderUnclear }
        let waiting = undated
        undated = []
        for row in waiting { readRenphoRow(row.fields, line: row.line, order: order, options.zone) }
        readings.sort { $0.line < $1.line }
    }

    mutating func add(_ metric: Metric, _ text: String, factor: Double, at: Date, line: Int, isEntry: Bool = false) {
        guard let number = Self.number(text) else {
            problems.append(Problem(line: line, rule: .number(metric), isEntry: isEntry))
            return
        }
        let value = (number * factor * 100).rounded() / 100
        do throws(ValidationError) {
            try metric.check(value)
            readings.append(
                Reading(metric: metric, value: value, loggedAt: at, line: line, source: format.source))
        } catch {
            problems.append(Problem(line: line, rule: .value(error), isEntry: isEntry))
        }
    }

    /// A number as files write it: a decimal point or comma. No reading needs more than a few digits:
    /// a longer field is not looked at character by character.
    static func number(_ text: String) -> Double? {
        let trimmed = text.utf8.count <= 64 ? text.trimmingWhitespace().replacing(",", with: ".") : ""
        guard let number = Double(trimmed), number.isFinite else { return nil }
        return number
    }

    /// `YYYY-MM-DD` at 12:00 in `zone`, or an RFC 3339 time.
    static func date(_ text: String, zone: LocalZone) -> Date? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.count == 10, let day = CalendarDate(parsing: trimmed) { return day.instant(atHour: 12, in: zone) }
        return RFC3339.parse(trimmed)
    }

    /// `YYYY-MM-DD HH:mm[:ss[.SSS]]` (or with a `T`), local time in `zone`.
    static func localTime(_ text: String, zone: LocalZone) -> Date? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?<day>\d{4}-\d{2}-\d{2})[ T](?<h>\d{1,2}):(?<min>\d{2})(?::(?<s>\d{2})(?:\.\d{1,9})?)?/),
            let day = CalendarDate(parsing: String(match.day))
        else { return nil }
        return time(on: day, hour: Int(match.h), minute: Int(match.min), second: match.s.flatMap { Int($0) } ?? 0, zone)
    }

    /// `day` at `hour:minute:second` in `zone`, or `nil` for a time that is none.
    static func time(on day: CalendarDate, hour: Int?, minute: Int?, second: Int, _ zone: LocalZone) -> Date? {
        guard let hour, let minute, (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        let noon = day.instant(atHour: 12, in: zone)
        return noon.addingTimeInterval(Double((hour - 12) * 3_600 + minute * 60 + second))
    }

    /// openScale's `dd.MM.yyyy HH:mm`, local time.
    static func openScaleDate(_ text: String, zone: LocalZone) -> Date? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?<d>\d{2})\.(?<m>\d{2})\.(?<y>\d{4})\s+(?<h>\d{2}):(?<min>\d{2})/),
            let day = CalendarDate(parsing: "\(match.y)-\(match.m)-\(match.d)")
        else { return nil }
        return time(on: day, hour: Int(match.h), minute: Int(match.min), second: 0, zone)
    }

    /// A date written with the year last (`03/04/2024`, `3.4.24`), or first (`2024-03-04`: its order
    /// is known, so its parts are given day first).
    struct DateParts: Equatable {
        var first: Int
        var second: Int
        var year: Int
        var isYearFirst = false
    }

    static func dateParts(_ text: String) -> DateParts? {
        let trimmed = text.trimmingWhitespace()
        if let match = trimmed.wholeMatch(of: /(?<y>\d{4})[-\/.](?<m>\d{1,2})[-\/.](?<d>\d{1,2})/),
            let year = Int(match.y), let month = Int(match.m), let day = Int(match.d)
        {
            return DateParts(first: day, second: month, year: year, isYearFirst: true)
        }
        guard let match = trimmed.wholeMatch(of: /(?<a>\d{1,2})[-\/.](?<b>\d{1,2})[-\/.](?<y>\d{2}|\d{4})/),
            let first = Int(match.a), let second = Int(match.b), let year = Int(match.y)
        else { return nil }
        return DateParts(first: first, second: second, year: year < 100 ? 2000 + year : year)
    }

    private static func renphoTime(_ parts: DateParts, order: DateOrder, time: String, zone: LocalZone) -> Date? {
        let (day, month) =
            parts.isYearFirst || order == .dayFirst ? (parts.first, parts.second) : (parts.second, parts.first)
        let written =
            DecimalText.padded(parts.year, width: 4) + "-" + DecimalText.padded(month, width: 2) + "-"
            + DecimalText.padded(day, width: 2)
        guard let date = CalendarDate(parsing: written),
            let match = time.trimmingWhitespace().wholeMatch(
                of: /(?<h>\d{1,2}):(?<min>\d{2})(?::(?<s>\d{2}))?\s*(?<ampm>[AaPp][Mm])?/),
            var hour = Int(match.h)
        else { return nil }
        if let ampm = match.ampm?.lowercased() {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (ampm == "pm" ? 12 : 0)
        }
        return Self.time(on: date, hour: hour, minute: Int(match.min), second: match.s.flatMap { Int($0) } ?? 0, zone)
    }
}
