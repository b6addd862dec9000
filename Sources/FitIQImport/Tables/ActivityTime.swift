import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The local day of an activity sample, as the apps' files write it: a wall clock without a zone
/// (Fitbit), an instant with its offset (Samsung's `UTC+0100`, Health Connect's seconds), or a day alone
/// (Garmin's `calendarDate`, Samsung's `day_time`).
enum ActivityTime {
    /// The wall clock `second` seconds into `day`, read in `zone`: the instant it is there, on the local
    /// day written (a wall time a change of the clocks skips keeps its day). `nil` past the day's seconds.
    static func wall(_ day: CalendarDate, second: Int, zone: LocalZone) -> LocalInstant? {
        guard (0..<86_400).contains(second) else { return nil }
        let wall = Int64(day.daysSince1970) * 86_400 + Int64(second)
        let at = day.instant(atHour: 12, in: zone).addingTimeInterval(Double(second - 43_200))
        return LocalInstant(at, offsetSeconds: Int(wall - Int64(at.timeIntervalSince1970.rounded(.down))))
    }

    /// `at`, kept on the local day `day` whatever the clock it was read on (a night's end on the day the
    /// file gives it, a day's summary at noon).
    static func on(_ day: CalendarDate, at: Date) -> LocalInstant {
        let seconds = at.timeIntervalSince1970
        let floor = seconds.isFinite ? Int64(seconds.rounded(.down).clamped(-1e15, 1e15)) : 0
        let noon = Int64(day.daysSince1970) * 86_400 + 43_200
        return LocalInstant(at, offsetSeconds: Int(noon - floor))
    }

    /// A day's summary: noon of `day` in `zone`, on that day.
    static func noon(_ day: CalendarDate, zone: LocalZone) -> LocalInstant {
        on(day, at: day.instant(atHour: 12, in: zone))
    }

    /// An offset as Samsung writes it (`UTC+0100`, `UTC-0530`, `+01:00`), in seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?:UTC|GMT)?(?<sign>[+-])(?<h>\d{2}):?(?<m>\d{2})/),
            let hours = Int(match.h), let minutes = Int(match.m), hours <= 18, minutes < 60
        else { return nil }
        return (match.sign == "-" ? -1 : 1) * (hours * 3_600 + minutes * 60)
    }

    /// Fitbit's `MM/DD/YY HH:mm:ss` (a four-digit year too): the day and the second of the day, read
    /// byte by byte (a month of minutes is 43,200 of them).
    static func monthFirst(_ text: String) -> (day: CalendarDate, second: Int)? {
        var fields: [Int] = []
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                guard digits < 4 else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            } else if digits > 0, "/ :".utf8.contains(byte) {
                fields.append(value)
                value = 0
                digits = 0
            } else {
                return nil
            }
            guard fields.count < 6 else { return nil }
        }
        if digits > 0 { fields.append(value) }
        guard fields.count == 3 || fields.count == 6 else { return nil }
        let year = fields[2] < 100 ? 2000 + fields[2] : fields[2]
        guard let day = CalendarDate(year: year, month: fields[0], day: fields[1]) else { return nil }
        guard fields.count == 6 else { return (day, 0) }
        guard fields[3] < 24, fields[4] < 60, fields[5] < 60 else { return nil }
        return (day, fields[3] * 3_600 + fields[4] * 60 + fields[5])
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double {
        Swift.min(Swift.max(self, low), high)
    }
}

/// A number a JSON file writes as a number or as text (`"12"`, Fitbit's per-minute values).
struct JSONNumber: Decodable, Sendable {
    /// The number; `nil` for `null` or text that is none.
    var value: Double?
    /// Whether it was written, but as no number (`"n/a"`, `true`): a bad entry, not an empty one.
    var isUnreadable = false

    init(_ value: Double?, unreadable: Bool) {
        self.value = value
        isUnreadable = unreadable
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = nil
        } else if let number = try? container.decode(Double.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = text.trimmingWhitespace().isEmpty ? nil : FileReadings.number(text)
            isUnreadable = value == nil && !text.trimmingWhitespace().isEmpty
        } else {
            isUnreadable = true
        }
    }
}
