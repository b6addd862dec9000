#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A day on the calendar (year, month, day), never converted through a time zone.
///
/// Dates of birth are calendar dates: the July 20 a user typed stays July 20 wherever the
/// program runs. Timestamps such as `1983-07-20T23:30:00-05:00` are read by their written date part.
public struct CalendarDate: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date, or returns `nil` when the day does not exist (such as February 30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, or an RFC 3339 timestamp by its written date part.
    public init?(parsing text: String) {
        let scalars = Array(text.trimmingSpaces().utf8)
        guard scalars.count == 10 || (scalars.count > 10 && Self.isTimestampTail(scalars[10...])) else {
            return nil
        }
        guard scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"),
            let year = Self.number(scalars[0..<4]), let month = Self.number(scalars[5..<7]),
            let day = Self.number(scalars[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The calendar day that contains `instant` on the local clock of `timeZone`.
    public init(containing instant: Date, in timeZone: LocalZone) {
        let days = Self.floorDivide(timeZone.localSeconds(at: instant), 86_400)
        self.init(daysSince1970: Int(days))
    }

    /// The day `days` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    public init(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    }

    /// Days from 1970-01-01 to this date (Howard Hinnant's `days_from_civil`).
    public var daysSince1970: Int {
        Self.daysSince1970(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (no validation: callers check the day exists).
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        DecimalText.padded(year, width: 4) + "-" + DecimalText.padded(month, width: 2) + "-"
            + DecimalText.padded(day, width: 2)
    }

    /// The instant at `hour`:00 on this day on the local clock of `timeZone`.
    public func instant(atHour hour: Int, in timeZone: LocalZone) -> Date {
        instant(atMinute: hour * 60, in: timeZone)
    }

    /// The instant `minute` minutes after midnight on this day on the local clock of `timeZone`.
    func instant(atMinute minute: Int, in timeZone: LocalZone) -> Date {
        let local = Int64(daysSince1970) * 86_400 + Int64(minute) * 60
        // The offset depends on the instant sought: start from the offset at the local time read as
        // UTC, then take the offset at that first guess (right on both sides of a DST change).
        var instant = Date(timeIntervalSince1970: Double(local))
        for _ in 0..<2 {
            let offset = Int64(timeZone.secondsEastOfUTC(at: instant))
            instant = Date(timeIntervalSince1970: Double(local - offset))
        }
        return instant
    }

    /// Whole years from this date to `other` (an age when this is a date of birth).
    public func years(until other: CalendarDate) -> Int {
        var years = other.year - year
        if (other.month, other.day) < (month, day) { years -= 1 }
        return years
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CalendarDate {
        CalendarDate(daysSince1970: daysSince1970 + days)
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CalendarDate(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a calendar date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Days in `month` of `year` (the one leap-year rule of the client).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// Accepts the time part of an RFC 3339 timestamp: `Thh:mm:ss[.fff](Z|±hh:mm)`.
    private static func isTimestampTail(_ tail: ArraySlice<UInt8>) -> Bool {
        guard let text = String(bytes: tail, encoding: .utf8) else { return false }
        return text.wholeMatch(of: /[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})/) != nil
    }
}
