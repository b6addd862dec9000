import Foundation

/// An instant with millisecond precision, read from and written as RFC 3339.
///
/// Written apart from the client's `RFC3339` on purpose: the development server shares no code with
/// the client, so that a bug in one cannot hide in both.
struct Timestamp: Sendable, Hashable, Comparable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    let milliseconds: Int64

    init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    init(_ date: Date) {
        self.milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Parses an RFC 3339 date-time (`2024-01-15T08:00:00Z`, `2024-01-15T10:00:00.5+02:00`).
    init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, let date = CalendarDate(iso: text.prefix(10)) else { return nil }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let hour = CalendarDate.number(bytes[11..<13]), let minute = CalendarDate.number(bytes[14..<16]),
            let second = CalendarDate.number(bytes[17..<19]),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fractionMilliseconds: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            let digits = Array(bytes[start..<min(index, start + 3)]) + Array(repeating: UInt8(ascii: "0"), count: 3)
            fractionMilliseconds = Int64(CalendarDate.number(digits[0..<3]) ?? 0)
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHours = CalendarDate.number(bytes[(index + 1)..<(index + 3)]),
                let offsetMinutes = CalendarDate.number(bytes[(index + 4)..<(index + 6)]),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        default:
            return nil
        }
        let seconds =
            Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            - Int64(offsetSeconds)
        self.milliseconds = seconds * 1000 + fractionMilliseconds
    }

    /// The instant as a `Date`.
    var date: Date { Date(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }

    /// RFC 3339 in UTC; milliseconds appear only when they are not zero.
    var rfc3339: String {
        let seconds = CalendarDate.floorDiv(Int(milliseconds), 1000)
        let millis = Int(milliseconds) - seconds * 1000
        let day = CalendarDate(daysSinceEpoch: CalendarDate.floorDiv(seconds, 86_400))
        let secondOfDay = seconds - day.daysSinceEpoch * 86_400
        var text =
            day.description + "T" + CalendarDate.pad(secondOfDay / 3600, 2) + ":"
            + CalendarDate.pad(secondOfDay % 3600 / 60, 2) + ":" + CalendarDate.pad(secondOfDay % 60, 2)
        if millis != 0 { text += "." + CalendarDate.pad(millis, 3) }
        return text + "Z"
    }

    static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
