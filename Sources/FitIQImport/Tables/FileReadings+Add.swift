import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every reader shares: a value written as text becomes a reading, or a bad row naming the rule.
extension FileReadings {
    static let kilogramsPerPound = 0.453_592_37

    /// Adds the reading of `metric` written `text` (times `factor`, into the metric's unit), at `at`:
    /// a bad row when it is no number or its rule refuses it.
    mutating func add(_ metric: Metric, _ text: String, factor: Double, at: Date, line: Int, isEntry: Bool = false) {
        guard let number = Self.number(text) else {
            badRows.append(BadRow(line: line, rule: .number(metric), isEntry: isEntry))
            return
        }
        add(metric, number * factor, at: at, line: line, isEntry: isEntry)
    }

    /// Adds the reading of `metric` of `value` (in the metric's unit), to a hundredth.
    mutating func add(_ metric: Metric, _ value: Double, at: Date, line: Int, isEntry: Bool = false) {
        let rounded = (value * 100).rounded() / 100
        do throws(ValidationError) {
            try metric.check(rounded)
            readings.append(Reading(metric: metric, value: rounded, loggedAt: at, line: line, source: source))
        } catch {
            badRows.append(BadRow(line: line, rule: .value(error), isEntry: isEntry))
        }
    }

    /// Adds an activity sample of `metric` (steps, water, a resting heart rate, …) of `value` in the
    /// metric's unit, taken at `at`, from the file's `stream` (a device, an app's data source; `""` when
    /// the file has one): summed into its local day later (``ActivityDays``). A zero (a minute without a
    /// step) is passed over; a negative or absurd value (above the metric's rule for one entry) is a bad
    /// row, never added.
    mutating func addSample(
        _ metric: Metric, _ value: Double, at: LocalInstant, stream: String = "", line: Int, isEntry: Bool = true
    ) {
        guard value != 0 else { return }
        guard value.isFinite, value > 0, value <= metric.allowedRange.upperBound else {
            badRows.append(BadRow(line: line, rule: .value(metric.rangeError), isEntry: isEntry))
            return
        }
        activity.add(metric, value, at: at, source: activitySource(stream))
    }

    /// Adds a stretch asleep from `start` to `end` (a stage: light, deep, REM, or asleep unspecified) of
    /// the file's `stream`; one that ends before it starts, or lasts more than a day, is a bad row.
    mutating func addAsleep(
        from start: Date, to end: LocalInstant, stream: String = "", line: Int, isEntry: Bool = true
    ) {
        let hours = (end.at.timeIntervalSince1970 - start.timeIntervalSince1970) / 3600
        guard hours.isFinite, hours >= 0 else {
            badRows.append(BadRow(line: line, rule: .endsBeforeStart, isEntry: isEntry))
            return
        }
        guard hours <= Metric.sleep.allowedRange.upperBound else {
            badRows.append(BadRow(line: line, rule: .value(Metric.sleep.rangeError), isEntry: isEntry))
            return
        }
        activity.addAsleep(from: start, to: end, source: activitySource(stream))
    }

    /// The source `stream` of this file's app (`fitbit`, `google-fit/merge_step_deltas`).
    mutating func activitySource(_ stream: String) -> ActivityDays.Source {
        activity.source(stream.isEmpty ? format : format + "/" + stream, app: source)
    }

    /// A bad row at `line` for `rule`.
    mutating func refuse(_ line: Int, _ rule: BadRow.Rule, isEntry: Bool = false) {
        badRows.append(BadRow(line: line, rule: rule, isEntry: isEntry))
    }

    /// A number as files write it: a decimal point or comma. No reading needs more than a few digits:
    /// a longer field is not looked at character by character.
    static func number(_ text: String) -> Double? {
        let trimmed = text.utf8.count <= 64 ? text.trimmingWhitespace().replacing(",", with: ".") : ""
        guard let number = Double(trimmed), number.isFinite else { return nil }
        return number
    }
}
