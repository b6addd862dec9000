import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line of a metric's history as people read it (``HistoryLines``): an entry, or a day's total above
/// its entries.
public struct HistoryLine: Sendable, Equatable {
    public var text: String
    /// The entry the line shows, as an index into the entries given; `nil` for a day's line.
    public var entry: Int?

    public init(text: String, entry: Int?) {
        self.text = text
        self.entry = entry
    }
}

/// A metric's history for people, newest first, as `fitiq-tui history METRIC` prints it and the editor
/// lists it: an entry a line with its day, time, value, source and note; a day's amount or a night lists
/// each day's value, with its entries under it.
public enum HistoryLines {
    /// The lines of `entries` (newest first) of `metric`, in `units` and `timeZone`.
    public static func of(_ entries: [ProgressEntry], metric: Metric, units: UnitSystem, timeZone: LocalZone)
        -> [HistoryLine]
    {
        let line = { (index: Int, prefix: String) in
            let entry = entries[index]
            let mark = entry.isSynced ? "" : "  " + tr("(not synced yet)")
            let note = entry.notes.map { TextSanitizer.sanitize($0) }.map { $0.isEmpty ? "" : "  " + $0 } ?? ""
            let text =
                "\(prefix)\(TimeOfDay(of: entry.loggedAt, in: timeZone))  "
                + "\(metric.format(entry.quantity, unitSystem: units))  \(entry.source.shown)\(mark)\(note)"
            return HistoryLine(text: text, entry: index)
        }
        guard metric.kind != .reading else {
            return entries.indices.map { line($0, "\(CalendarDate(containing: entries[$0].loggedAt, in: timeZone)) ") }
        }
        // Newest first, so a day's entries are together.
        var lines: [HistoryLine] = []
        var index = entries.startIndex
        while index < entries.endIndex {
            let day = CalendarDate(containing: entries[index].loggedAt, in: timeZone)
            var end = index
            while end < entries.endIndex, CalendarDate(containing: entries[end].loggedAt, in: timeZone) == day {
                end += 1
            }
            let total = entries[index..<end].reduce(0) { $0 + $1.quantity }
            lines.append(HistoryLine(text: "\(day)  \(metric.format(total, unitSystem: units))", entry: nil))
            lines += (index..<end).map { line($0, "  ") }
            index = end
        }
        return lines
    }
}
