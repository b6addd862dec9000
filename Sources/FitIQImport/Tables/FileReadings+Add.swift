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
