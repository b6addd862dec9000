import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Dates and times as the apps' files write them, read without a formatter.
enum WrittenTime {
    /// `YYYY-MM-DD` at 12:00 in `zone`, or an RFC 3339 time.
    static func date(_ text: String, zone: LocalZone) -> Date? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.count == 10, let day = CalendarDate(parsing: trimmed) { return day.instant(atHour: 12, in: zone) }
        return RFC3339.parse(trimmed)
    }

    /// `YYYY-MM-DD HH:mm[:ss[.SSS]]` (or with a `T`), local time in `zone`.
    static func localTime(_ text: String, zone: LocalZone) -> Date? {
        guard
            let match = text.trimmingWhitespace().wholeMatch(
                of: /(?<day>\d{4}-\d{2}-\d{2})[ T](?<h>\d{1,2}):(?<min>\d{2})(?::(?<s>\d{2})(?:\.\d{1,9})?)?/),
            let day = CalendarDate(parsing: String(match.day))
        else { return nil }
        return time(on: day, hour: Int(match.h), minute: Int(match.min), second: match.s.flatMap { Int($0) } ?? 0, zone)
    }

    /// `day` at `hour:minute:second` in `zone`, or `nil` for a time that is none.
    static func time(on day: CalendarDate, hour: Int?, minute: Int?, second: Int, _ zone: LocalZone) -> Date? {
        guard let hour, let minute, (0..<24).contains(hour), (0..<60).contains(minute), (0..<61).contains(second)
        else { return nil }
        let noon = day.instant(atHour: 12, in: zone)
        return noon.addingTimeInterval(Double((hour - 12) * 3_600 + minute * 60 + second))
    }

    /// The day `year`-`month`-`day`, or `nil` when there is none.
    static func day(year: Int, month: Int, day: Int) -> CalendarDate? {
        CalendarDate(
            parsing: DecimalText.padded(year, width: 4) + "-" + DecimalText.padded(month, width: 2) + "-"
                + DecimalText.padded(day, width: 2))
    }

    /// A date written with the year last (`03/04/2024`, `3.4.24`), or first (`2024-03-04`: its order
    /// is known, so its parts are given day first).
    struct DateParts: Equatable {
        var first: Int
        var second: Int
        var year: Int
        var isYearFirst = false
    }

    static func dateParts(_ text: String) -> DateParts? {
        let trimmed = text.trimmingWhitespace()
        if let match = trimmed.wholeMatch(of: /(?<y>\d{4})[-\/.](?<m>\d{1,2})[-\/.](?<d>\d{1,2})/),
            let year = Int(match.y), let month = Int(match.m), let day = Int(match.d)
        {
            return DateParts(first: day, second: month, year: year, isYearFirst: true)
        }
        guard let match = trimmed.wholeMatch(of: /(?<a>\d{1,2})[-\/.](?<b>\d{1,2})[-\/.](?<y>\d{2}|\d{4})/),
            let first = Int(match.a), let second = Int(match.b), let year = Int(match.y)
        else { return nil }
        return DateParts(first: first, second: second, year: year < 100 ? 2000 + year : year)
    }

    /// Milliseconds since 1970 for years 1 to 9999, as RFC 3339 text can say them: a larger number is
    /// no time.
    static func milliseconds(_ value: Double) -> Date? {
        abs(value) < 2.5e14 ? Date(timeIntervalSince1970: value / 1000) : nil
    }
}
