import Foundation

/// A day in the proleptic Gregorian calendar, without a time zone.
///
/// The client has its own `CalendarDate` (FitIQCore); this one is written apart on purpose: the
/// development server shares no code with the client, so that a bug in one cannot hide in both.
struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// Creates a date when the fields name a real day.
    init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month) else { return nil }
        guard (1...CalendarDate.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` exactly.
    init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        guard let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
            let day = Self.number(bytes[8..<10])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC day that contains the instant.
    init(utcDayOf date: Date) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        self.init(daysSinceEpoch: Self.floorDiv(seconds, 86_400))
    }

    /// The date that lies the given number of days after 1970-01-01.
    init(daysSinceEpoch days: Int) {
        // Civil-from-days conversion (Howard Hinnant's algorithm), valid for the whole Gregorian range.
        let z = days + 719_468
        let era = Self.floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    /// Days between 1970-01-01 and this date.
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = Self.floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * mp + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Midnight UTC at the start of this date.
    var startOfDayUTC: Date {
        Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch) * 86_400)
    }

    /// The date the given number of days later (earlier when negative).
    func adding(days: Int) -> CalendarDate {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Whole years from this date of birth to `today`.
    func age(on today: CalendarDate) -> Int {
        var years = today.year - year
        if (today.month, today.day) < (month, day) { years -= 1 }
        return years
    }

    /// `YYYY-MM-DD`.
    var description: String {
        Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
    }

    /// `YYYY-MM-DDT00:00:00Z`, the form the production server uses for dates of birth.
    var midnightTimestamp: String { description + "T00:00:00Z" }

    static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
