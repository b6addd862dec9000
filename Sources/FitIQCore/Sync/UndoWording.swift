/// What an ``UndoStep`` says it undid, kept as data and worded when it is read, in the language then in
/// force: a change saved in one language and undone after switching to another is said in the new one.
public enum UndoWording: Sendable, Equatable, Codable {
    /// Profile fields changed: `the change of name, bio`.
    case fields([ProfileMetadata.Key])
    /// A measurement logged: `the weight 72.4 kg logged on 2026-11-26`.
    case logged(UndoReading)
    /// An entry removed: `the removal of the weight 72.4 kg of 2026-11-26`.
    case removed(UndoReading)
    /// An entry corrected: `the correction of the weight 72.4 kg of 2026-11-26` (its value before).
    case corrected(UndoReading)
    /// Worded when the change was saved: a cache written before the wording was kept as data.
    case text(String)

}

/// A measurement as an undo step names it: its type, value (in the metric's base unit), the day it was
/// logged on, and the unit system it was shown in then.
public struct UndoReading: Sendable, Equatable, Codable {
    public var type: String
    public var value: Double
    public var day: CalendarDate
    public var unitSystem: UnitSystem

    public init(type: String, value: Double, day: CalendarDate, unitSystem: UnitSystem) {
        self.type = type
        self.value = value
        self.day = day
        self.unitSystem = unitSystem
    }

    /// `entry` as logged on its day in `timeZone`.
    public init(_ entry: ProgressEntry, in timeZone: LocalZone, unitSystem: UnitSystem) {
        self.init(
            type: entry.type, value: entry.quantity, day: CalendarDate(containing: entry.loggedAt, in: timeZone),
            unitSystem: unitSystem)
    }
}
