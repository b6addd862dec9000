import FitIQCore

/// What fitiq-tui's own exports (`export --csv`, `export --json`) hold: one entry of any metric the server
/// records a row, in its unit (or its imperial one), with the time, the source it came from and its note.
/// Both are read here alike, so the two round-trip the same entries.
enum FitIQExport {
    /// One entry as the export writes it: each key's text (`nil` when absent), and the value, when it
    /// is a number.
    struct Entry {
        var metric: String?
        var loggedAt: String?
        var value: Double?
        var unit: String?
        var source: String?
        var notes: String?
    }

    /// Reads `entry`, at `line` (a table's line, or the entry of a list with `isEntry`), into `file`: a
    /// reading, a bad row naming the rule it breaks, or a row left out on purpose (a derived BMI, a goal).
    static func read(_ entry: Entry, line: Int, isEntry: Bool = false, into file: inout FileReadings) {
        let type = entry.metric ?? ""
        // Derived from the weights and heights on any account: the import brings those.
        if type == MeasurementSeries.bmi.type, entry.source == "derived" {
            file.derivedRowsSkipped += 1
            return
        }
        // A JSON export's goals follow its readings; they belong to the machine they were set on.
        if entry.source == "goal" {
            file.goalRowsSkipped += 1
            return
        }
        guard let metric = Metric.ofType(type) else { return file.refuse(line, .metricType, isEntry: isEntry) }
        guard let at = RFC3339.parse(entry.loggedAt ?? "") else {
            return file.refuse(line, .loggedAt, isEntry: isEntry)
        }
        let unit = entry.unit ?? ""
        // The metric's unit, or its imperial one (as `--units imperial` writes it).
        guard let factor = unit == metric.unit ? 1 : metric.imperial.flatMap({ $0.unit == unit ? $0.size : nil }) else {
            return file.refuse(line, .unit(unit, of: metric), isEntry: isEntry)
        }
        guard let value = entry.value else { return file.refuse(line, .number(metric), isEntry: isEntry) }
        file.add(metric, value * factor, at: at, line: line, isEntry: isEntry)
        guard file.readings.last?.line == line else { return }
        file.readings[file.readings.count - 1].source = ProgressEntry.Source(rawValue: entry.source ?? "")
        let notes = TextSanitizer.sanitize(entry.notes ?? "")
        file.readings[file.readings.count - 1].notes =
            notes.isEmpty ? nil : String(notes.prefix(ProfileRules.notesLimit))
    }
}
