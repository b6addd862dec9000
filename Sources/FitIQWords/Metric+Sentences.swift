import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every sentence about a change to a measurement, built from the metric table: status, the sync
/// details, the logout refusal, rejections and undo name the metric and show its unit, whichever it is.
extension Metric {
    /// The metric in a sentence: `height`, `weight`, `body fat`.
    public var name: String { field.labelInSentence }

    /// The metric after a noun it qualifies: `water` in `water goal`, and in French `d'eau` in `objectif
    /// d'eau`. French says the `de` here, elided before a vowel or a mute h (`d'eau`, `d'humeur`, `de pas`),
    /// so its sentences leave it out; the other languages write their preposition in the sentence and
    /// say the name as ``name`` does.
    public var complement: String {
        switch field {
        case .height: trc("after a noun", "height")
        case .weight: trc("after a noun", "weight")
        case .bodyFat: trc("after a noun", "body fat")
        case .steps: trc("after a noun", "steps")
        case .distance: trc("after a noun", "distance")
        case .activeMinutes: trc("after a noun", "active minutes")
        case .caloriesOut: trc("after a noun", "calories burned")
        case .caloriesIn: trc("after a noun", "calories eaten")
        case .water: trc("after a noun", "water")
        case .protein: trc("after a noun", "protein")
        case .carbs: trc("after a noun", "carbohydrates")
        case .fat: trc("after a noun", "fat")
        case .sleep: trc("after a noun", "sleep")
        case .restingHeartRate: trc("after a noun", "resting heart rate")
        case .mood: trc("after a noun", "mood")
        default: name
        }
    }

    /// A history without entries: `No weight entries yet.`
    public var noEntriesYet: String { tr("No {measurement} entries yet.", ["measurement": complement]) }

    /// The metric in a summary line: `Heights`, `Weights`, `Body fat readings`.
    public var pluralName: String {
        switch field {
        case .height: tr("Heights")
        case .weight: tr("Weights")
        case .bodyFat: tr("Body fat readings")
        case .restingHeartRate: tr("Resting heart rates")
        case .mood: tr("Moods")
        case .sleep: tr("Nights")
        default: field.label
        }
    }

    /// A value of the metric of `type` as a person reads it, with the metric's name: `weight 72.4 kg`;
    /// a type this build does not track shows as it came (`steps 9000.0`).
    public static func reading(type: String, _ value: Double, unitSystem: UnitSystem) -> String {
        guard let metric = ofType(type) else { return "\(TextSanitizer.sanitize(type)) \(value)" }
        return metric.name + " " + metric.format(value, unitSystem: unitSystem)
    }

    /// A pending entry: `weight history: 72.4 kg on 2026-11-26`.
    static func pendingEntry(type: String, _ value: Double, on day: CalendarDate, unitSystem: UnitSystem) -> String {
        let (name, shown) = parts(type: type, value, unitSystem: unitSystem)
        return tr(
            "{measurement} history: {value} on {day}", ["measurement": name, "value": shown, "day": day.description])
    }

    /// A pending removal: `weight history: remove 72.4 kg on 2026-11-26`.
    static func pendingRemoval(type: String, _ value: Double, on day: CalendarDate, unitSystem: UnitSystem) -> String {
        let (name, shown) = parts(type: type, value, unitSystem: unitSystem)
        return tr(
            "{measurement} history: remove {value} on {day}",
            ["measurement": name, "value": shown, "day": day.description])
    }

    /// What undo says it undid: `the weight 72.4 kg logged on 2026-11-26`.
    static func loggedStep(type: String, _ value: Double, on day: CalendarDate, unitSystem: UnitSystem) -> String {
        tr(
            "the {reading} logged on {day}",
            ["reading": reading(type: type, value, unitSystem: unitSystem), "day": day.description])
    }

    /// What undo says it undid: `the removal of the weight 72.4 kg of 2026-11-26`.
    static func removalStep(type: String, _ value: Double, on day: CalendarDate, unitSystem: UnitSystem) -> String {
        tr(
            "the removal of the {reading} of {day}",
            ["reading": reading(type: type, value, unitSystem: unitSystem), "day": day.description])
    }

    /// What undo says it undid: `the correction of the weight 72.4 kg of 2026-11-26`.
    static func correctionStep(type: String, _ value: Double, on day: CalendarDate, unitSystem: UnitSystem) -> String {
        tr(
            "the correction of the {reading} of {day}",
            ["reading": reading(type: type, value, unitSystem: unitSystem), "day": day.description])
    }

    private static func parts(type: String, _ value: Double, unitSystem: UnitSystem) -> (name: String, value: String) {
        guard let metric = ofType(type) else { return (TextSanitizer.sanitize(type), "\(value)") }
        return (metric.complement, metric.format(value, unitSystem: unitSystem))
    }
}
