#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A time on the local clock, to the minute: when an entry was logged on its day (`--at 07:30`).
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// `7:30` or `07:30`; `nil` for anything else (`25:00`, `7.30`).
    public init?(parsing text: String) {
        guard let match = text.trimmingWhitespace().wholeMatch(of: #/(?<h>\d{1,2}):(?<m>\d{2})/#),
            let hour = Int(match.h), let minute = Int(match.m)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// The time of `instant` on the local clock of `zone`.
    public init(of instant: Date, in zone: LocalZone) {
        let seconds = zone.localSeconds(at: instant)
        let minutes = Int(((seconds % 86_400) + 86_400) % 86_400) / 60
        hour = minutes / 60
        minute = minutes % 60
    }

    /// `07:30`.
    public var description: String {
        DecimalText.padded(hour, width: 2) + ":" + DecimalText.padded(minute, width: 2)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }

    /// When `--at TEXT` (with `--date DAY`, if given) says an entry was logged: a time (`07:30`) on
    /// `day` or today, or a day and a time (`2026-11-30 07:30`, `2026-11-30T07:30`), on the local clock.
    /// Returns `nil` when the text is neither.
    public static func parse(at text: String, day: CalendarDate?) -> (day: CalendarDate?, time: TimeOfDay)? {
        let text = text.trimmingWhitespace()
        if let time = TimeOfDay(parsing: text) { return (day, time) }
        guard let split = text.firstIndex(where: { $0 == " " || $0 == "T" }),
            text.distance(from: text.startIndex, to: split) == 10,
            let written = CalendarDate(parsing: String(text[..<split])),
            let time = TimeOfDay(parsing: String(text[text.index(after: split)...]))
        else { return nil }
        if let day, day != written { return nil }
        return (written, time)
    }
}

extension CalendarDate {
    /// The instant at `time` on this day on the local clock of `timeZone`.
    public func instant(at time: TimeOfDay, in timeZone: LocalZone) -> Date {
        instant(atMinute: time.hour * 60 + time.minute, in: timeZone)
    }
}

/// When a logging command or `log` line says an entry was measured (`--date`, `--at`), and its note
/// (`--note`), as typed: checked when it is logged.
public struct LogWhen: Sendable, Equatable {
    public var day: String?
    public var time: String?
    public var note: String?

    public init(day: String? = nil, time: String? = nil, note: String? = nil) {
        self.day = day
        self.time = time
        self.note = note
    }

    /// The day and time given, or the rule they break (a real day, a time `HH:MM`).
    public func resolved() throws(ValidationError) -> (day: CalendarDate?, time: TimeOfDay?) {
        var day: CalendarDate?
        if let text = self.day {
            guard let parsed = CalendarDate(parsing: text), text.count == 10 else {
                throw .invalidFormat(.date, rule: .realDay)
            }
            day = parsed
        }
        guard let time else { return (day, nil) }
        guard let parsed = TimeOfDay.parse(at: time, day: day) else { throw .invalidFormat(.time, rule: .timeOfDay) }
        return (parsed.day ?? day, parsed.time)
    }
}
