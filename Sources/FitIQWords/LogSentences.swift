import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Metric {
    /// One value as typed, for messages and help: `0.25 l`, `7h30m`.
    public var example: String {
        switch self {
        case .height: "180.5 cm"
        case .weight: "72.4 kg"
        case .bodyFat: "18.5 %"
        case .steps: "4000"
        case .distance: "5.2 km"
        case .activeMinutes: "45 min"
        case .caloriesOut, .caloriesIn: "2300 kcal"
        case .water: "0.25 l"
        case .protein, .carbs, .fat: "30 g"
        case .sleep: "7h30m"
        case .restingHeartRate: "58 bpm"
        case .mood: "7"
        default: "1"
        }
    }
}

/// What a command or plain mode says after logging an entry.
public enum LogSentences {
    /// What a command or plain mode says of a logging's `outcome`: the entry logged, or the current
    /// height set or unchanged.
    public static func said(
        _ outcome: ChangeOutcome, of metric: Metric, units: UnitSystem, day: CalendarDate?, time: TimeOfDay?
    ) -> String {
        switch outcome {
        case .heightUnchanged(let current):
            tr("Height unchanged ({value}).", ["value": current.map { Height.format($0, unitSystem: units) } ?? ""])
        case .heightSet(let height):
            tr("Height set to {value}.", ["value": Height.format(height, unitSystem: units)])
        case .logged(let entry, let isCurrentHeight):
            logged(entry, of: metric, units: units, day: day, time: time, isCurrentHeight: isCurrentHeight)
        default:
            ""
        }
    }

    /// `Logged 0.25 l.`, `Logged 80 kg on 2026-11-30.`, `Logged 80 kg at 07:30.`, with the note when
    /// there is one; a past height says whether it became the current one.
    ///
    /// - Parameter dated: whether a day or a time was given (an entry logged now says neither).
    public static func logged(
        _ entry: ProgressEntry, of metric: Metric, units: UnitSystem, day: CalendarDate?, time: TimeOfDay?,
        isCurrentHeight: Bool
    ) -> String {
        let values = [
            "value": metric.format(entry.quantity, unitSystem: units), "day": day?.description ?? "",
            "time": time?.description ?? "",
        ]
        let sentence =
            switch (day, time) {
            case (nil, nil): tr("Logged {value}.", values)
            case (nil, _?): tr("Logged {value} at {time}.", values)
            case (_?, nil) where metric == .height:
                isCurrentHeight
                    ? tr("Logged {value} on {day}; it is your current height.", values)
                    : tr("Logged {value} on {day} (an earlier measurement).", values)
            case (_?, nil): tr("Logged {value} on {day}.", values)
            case (_?, _?): tr("Logged {value} on {day} at {time}.", values)
            }
        guard let notes = entry.notes, !notes.isEmpty else { return sentence }
        return sentence + " " + tr("Note: {note}", ["note": TextSanitizer.sanitize(notes)])
    }
}
