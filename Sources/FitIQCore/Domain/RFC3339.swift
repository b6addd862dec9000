#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Instants as RFC 3339 text: written in UTC without fractions (`2024-01-15T08:00:00Z`), read in any
/// RFC 3339 form (fractional seconds, `Z` or a `±hh:mm` offset). The one parser and formatter of the
/// client; `Date.ISO8601FormatStyle` needs no ICU.
public enum RFC3339 {
    /// `2024-01-15T08:00:00Z`.
    public static func format(_ instant: Date) -> String {
        instant.formatted(Date.ISO8601FormatStyle())
    }

    /// The instant `text` names, or `nil` when it is not RFC 3339. The year has four digits, as RFC 3339
    /// says (`date-fullyear = 4DIGIT`): Foundation's parser alone reads `202025-03-01T12:00:00Z` as
    /// the year 202025.
    public static func parse(_ text: String) -> Date? {
        let start = Array(text.utf8.prefix(5))
        guard start.count == 5, start[..<4].allSatisfy({ (0x30...0x39).contains($0) }), start[4] == UInt8(ascii: "-")
        else { return nil }
        if let instant = utcForm(text) { return instant }
        guard leavesNothingToRollOver(text) else { return nil }
        // The style the text asks for first (a failed parse costs an error).
        let fractional = text.utf8.contains(UInt8(ascii: "."))
        let styles = [
            Date.ISO8601FormatStyle(includingFractionalSeconds: fractional),
            Date.ISO8601FormatStyle(includingFractionalSeconds: !fractional),
        ]
        return styles.lazy.compactMap { try? $0.parse(text) }.first
    }

    /// Whether the day (`YYYY-MM-DD`) and the hour and minute (`Thh:mm`) `text` starts with, when written
    /// in digits, are ones the calendar has: Foundation's parser rolls a day the month lacks, or an hour
    /// or minute past its end, over (`2025-02-30T12:00:00+01:00` is 2 March), where RFC 3339 has no such
    /// time. Text of another form is left to the parser.
    static func leavesNothingToRollOver(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(16))
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return true }
        guard CalendarDate(year: year, month: month, day: day) != nil else { return false }
        guard let hour = number(11..<13), let minute = number(14..<16) else { return true }
        return hour < 24 && minute < 60
    }

    /// `YYYY-MM-DDThh:mm:ss[.fraction]Z` (up to nine digits of fraction), the form of the dates a
    /// server answers with by the thousand, read without a parser (Foundation's cost a first sync
    /// dearly: docs/benchmarks.md "bench-scale"); `nil` for any other text, which the parser reads. The instant
    /// is the parser's: exactly for whole seconds, and to well under a microsecond with a fraction
    /// (Foundation's sum may round the last bit of the `Double` otherwise).
    static func utcForm(_ text: String) -> Date? {
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        func number(_ digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                next = bytes.next()
            }
            return value
        }
        func separator(_ character: Character) -> Bool {
            guard next == character.asciiValue else { return false }
            next = bytes.next()
            return true
        }
        guard let year = number(4), separator("-"), let month = number(2), separator("-"), let day = number(2),
            separator("T"), let hour = number(2), separator(":"), let minute = number(2), separator(":"),
            let second = number(2)
        else { return nil }
        var nanoseconds = 0
        if separator(".") {
            var digits = 0
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 9 {
                nanoseconds = nanoseconds * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                next = bytes.next()
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanoseconds *= 10 }
        }
        guard separator("Z"), next == nil, let date = CalendarDate(year: year, month: month, day: day), hour < 24,
            minute < 60, second < 60
        else { return nil }
        let seconds = date.daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second - 978_307_200
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + Double(nanoseconds) / 1e9)
    }
}
