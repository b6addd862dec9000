import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension HealthImportResult {
    /// What the import did, for people: one line per subject.
    ///
    /// - Parameters:
    ///   - posted: how many of each metric's new entries (by metric id) the server has acknowledged so
    ///     far, when known.
    ///   - profileDateOfBirth: the profile's date of birth, named when the health data's differs.
    public func summary(unitSystem: UnitSystem, posted: [String: Int]? = nil, profileDateOfBirth: CalendarDate?)
        -> [String]
    {
        var lines = [biologicalSex.description]
        for metric in Metric.all {
            let done = self[metric]
            // Height is always reported (an export without heights says so); the others when present.
            guard metric == .height || done.found > 0 || done.daysHeld > 0 else { continue }
            var line =
                done.isDays
                ? tr(
                    "{measurements}: {found} days found, {new} new, {held} held already",
                    [
                        "measurements": metric.pluralName, "found": String(done.found),
                        "new": String(done.newEntries.count), "held": String(done.daysHeld),
                    ])
                : tr(
                    "{measurements}: {found} found, {new} new",
                    [
                        "measurements": metric.pluralName, "found": String(done.found),
                        "new": String(done.newEntries.count),
                    ])
            if let posted = posted?[metric.id] { line += ", " + tr("{count} posted", ["count": String(posted)]) }
            if done.outOfRange > 0 {
                line +=
                    " "
                    + (done.isDays
                        ? tr(
                            "({count} days outside {range} left out)",
                            ["count": String(done.outOfRange), "range": metric.rangeText])
                        : tr(
                            "({count} outside {range} left out)",
                            ["count": String(done.outOfRange), "range": metric.rangeText]))
            }
            lines.append(line + ".")
        }
        if refusedRecordCount > 0 {
            lines.append(
                trn(
                    "Left out {count} record that breaks a rule:", "Left out {count} records that break a rule:",
                    count: refusedRecordCount))
            lines += refusedRecords.map { "  " + $0.description }
            if refusedRecordCount > refusedRecords.count {
                lines.append(
                    "  " + tr("… and {count} more", ["count": String(refusedRecordCount - refusedRecords.count)]))
            }
        }
        if let currentHeight {
            lines.append(
                tr(
                    "Current height: {value} (the newest sample).",
                    ["value": Height.format(currentHeight, unitSystem: unitSystem)]))
        }
        if let healthDateOfBirth, dateOfBirthDiffers {
            let day = healthDateOfBirth.description
            lines.append(
                profileDateOfBirth.map {
                    tr(
                        "Date of birth in the health data: {day} (the profile keeps {profile}); it is never sent.",
                        ["day": day, "profile": $0.description])
                } ?? tr("Date of birth in the health data: {day}; it is never sent.", ["day": day]))
        }
        return lines
    }
}

extension BadRowsError: CustomStringConvertible {
    /// The first 20 by line, each with its rule.
    public var description: String {
        let listed = problems.prefix(20).map(\.description).joined(separator: "; ")
        let more = problems.count > 20 ? "; " + tr("… and {count} more", ["count": String(problems.count - 20)]) : ""
        return trn(
            "Nothing was imported: {count} row breaks a rule ({rows}).",
            "Nothing was imported: {count} rows break a rule ({rows}).", count: problems.count,
            ["rows": TextSanitizer.sanitize(listed) + more])
    }
}

extension ReadingsImportResult {
    /// What an import of other apps' files did (or, `preview`, would do), for people: a line per file
    /// with the days its readings span, a line per metric, then what was left out and the zone local
    /// times were read in. `describe` says what a format (by name) is.
    public func summary(
        of files: [ImportedFile], preview: Bool, zone: String, timeZone: LocalZone, describe: (String) -> String
    ) -> [String] {
        var lines: [String] = []
        let day = { (date: Date) in CalendarDate(containing: date, in: timeZone).description }
        for imported in files {
            let file = imported.file
            let values = ["file": TextSanitizer.sanitize(imported.name), "format": describe(file.format)]
            if let first = file.readings.map(\.loggedAt).min(), let last = file.readings.map(\.loggedAt).max() {
                lines.append(
                    trn(
                        "{file}: {format}, {count} reading from {first} to {last}.",
                        "{file}: {format}, {count} readings from {first} to {last}.", count: file.readings.count,
                        values.merging(["first": day(first), "last": day(last)]) { $1 }))
            } else {
                lines.append(tr("{file}: {format}, no readings.", values))
            }
            if let unit = file.inferredUnit {
                lines.append(
                    tr("The file does not say its weights' unit; read as {unit} (weight ÷ BMI).", ["unit": unit]))
            }
        }
        lines += metricLines()
        // The rows left out, by why: broken, or left out on purpose (derived, or a machine's own goals).
        let left: [(count: Int, said: (Int) -> String)] = [
            (
                files.reduce(0) { $0 + $1.file.badRows.count },
                { trn("Skipped {count} bad row.", "Skipped {count} bad rows.", count: $0) }
            ),
            (
                files.reduce(0) { $0 + $1.file.derivedRowsSkipped },
                {
                    trn(
                        "Skipped {count} BMI row: BMI is derived from weight and height.",
                        "Skipped {count} BMI rows: BMI is derived from weight and height.", count: $0)
                }
            ),
            (
                files.reduce(0) { $0 + $1.file.goalRowsSkipped },
                {
                    trn(
                        "Skipped {count} goal row: goals stay on the machine they were set on (goal set).",
                        "Skipped {count} goal rows: goals stay on the machine they were set on (goal set).", count: $0)
                }
            ),
        ]
        lines += left.filter { $0.count > 0 }.map { $0.said($0.count) }
        let columns = files.flatMap(\.file.skippedColumns).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        if !columns.isEmpty {
            lines.append(
                tr(
                    "Columns not imported: {columns}.",
                    ["columns": columns.map(TextSanitizer.sanitize).joined(separator: ", ")]))
        }
        if files.contains(where: { $0.file.readsLocalTimes }) {
            lines.append(tr("Times without a zone were read in {zone}.", ["zone": TextSanitizer.sanitize(zone)]))
        }
        return lines
    }

    /// A line per metric read: how many, how many new, how many already there.
    private func metricLines() -> [String] {
        Metric.recorded.filter { self[$0].read > 0 }.map { metric in
            let done = self[metric]
            guard done.isDays else {
                return tr(
                    "{measurements}: {read} read, {new} new, {there} already there.",
                    [
                        "measurements": metric.pluralName, "read": String(done.read), "new": String(done.new),
                        "there": String(done.alreadyThere),
                    ])
            }
            let line = tr(
                "{measurements}: {found} days found, {new} new, {held} held already",
                [
                    "measurements": metric.pluralName, "found": String(done.read), "new": String(done.new),
                    "held": String(done.alreadyThere),
                ])
            guard done.refused > 0 else { return line + "." }
            return line + " "
                + tr(
                    "({count} days outside {range} left out)",
                    ["count": String(done.refused), "range": metric.rangeText]) + "."
        }
    }
}

extension BadRow: CustomStringConvertible {
    /// `line 4: date must be YYYY-MM-DD`.
    public var description: String {
        let place =
            isEntry
            ? tr("entry {entry}: {rule}", ["entry": String(line), "rule": rule.description])
            : tr("line {line}: {rule}", ["line": String(line), "rule": rule.description])
        return file.map { TextSanitizer.sanitize($0) + ", " + place } ?? place
    }
}

extension BadRow.Rule: CustomStringConvertible {
    /// What the row breaks, in a few words: `date must be YYYY-MM-DD`.
    public var description: String {
        switch self {
        case .rowTooLong(let bytes): tr("a row must be at most {bytes} bytes long", ["bytes": String(bytes)])
        case .notUTF8: tr("a row must be UTF-8 text")
        case .fieldCount(let fields, let columns):
            tr("has {count} fields; the header has {columns}", ["count": String(fields), "columns": String(columns)])
        case .day: tr("date must be YYYY-MM-DD")
        case .metricType:
            tr("metric must be one of {types}", ["types": Metric.recorded.map(\.type).joined(separator: ", ")])
        case .loggedAt: tr("logged_at must be an RFC 3339 time")
        case .unit(let unit, let metric):
            tr(
                "unit {unit} is not one of {measurement}'s",
                ["unit": TextSanitizer.sanitize(unit), "measurement": metric.complement])
        case .writtenAs(let column, let pattern):
            tr("{column} must be {pattern}", ["column": column, "pattern": pattern])
        case .number(let metric): tr("{field} must be a number", ["field": metric.field.label])
        case .value(let error): error.description
        case .time: tr("the time is not one this format writes")
        case .text(let key): tr("{key} must be text", ["key": key])
        case .endsBeforeStart: tr("a sample must not end before it starts")
        }
    }
}

extension ImportError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .empty: tr("The file is empty: it has no header.")
        case .unknownHeader(let header, let formats):
            tr(
                "The header \"{header}\" is not one of the formats read: {formats}.",
                ["header": header, "formats": formats.joined(separator: "; ")])
        case .dateOrderUnclear:
            tr(
                "Every date could be day first or month first (03/04/2024); say which with --date-order dmy or --date-order mdy."
            )
        case .unreadableJSON(let reason): tr("The JSON cannot be read: {reason}.", ["reason": reason])
        case .unitUnclear:
            tr("The file does not say whether its weights are in kg or lb, and its readings do not tell; use --unit.")
        }
    }
}
