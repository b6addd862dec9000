import Foundation

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
        let scalars = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard scalars.count == 10 || (scalars.count > 10 && Self.isTimestampTail(scalars[10...])) else {
            return nil
        }
        guard scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"),
            let year = Self.number(scalars[0..<4]), let month = Self.number(scalars[5..<7]),
            let day = Self.number(scalars[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The calendar day that contains `instant` in `timeZone`.
    public init(containing instant: Date, in timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        // A Gregorian calendar always yields these components for a finite date.
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// The instant at `hour`:00 on this day in `timeZone`.
    public func instant(atHour hour: Int, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour)
        return calendar.date(from: parts) ?? Date(timeIntervalSince1970: 0)
    }

    /// Whole years from this date to `other` (an age when this is a date of birth).
    public func years(until other: CalendarDate) -> Int {
        var years = other.year - year
        if (other.month, other.day) < (month, day) { years -= 1 }
        return years
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CalendarDate {
        let utc = TimeZone(identifier: "UTC") ?? .current
        let moved = instant(atHour: 12, in: utc).addingTimeInterval(Double(days) * 86_400)
        return CalendarDate(containing: moved, in: utc)
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

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
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
