import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Parses the export's `yyyy-MM-dd HH:mm:ss ±hhmm` timestamps into instants, by hand.
///
/// A `DateFormatter` per record would cost more than the XML parsing itself; this reads the fixed
/// layout directly and applies the written offset, so `19:30 -0500` and `08:00 +0900` compare by instant.
enum HealthTimestamp {
    /// The instant `bytes` denotes, or `nil` when they are not a valid timestamp of that layout.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        parseLocal(bytes)?.at
    }

    /// The instant `bytes` denote with the wall clock they were written on (its day is the day the
    /// export says, wherever it is read), or `nil` when they are not a valid timestamp of that layout.
    static func parseLocal(_ bytes: UnsafeBufferPointer<UInt8>) -> LocalInstant? {
        guard bytes.count == 25, let base = bytes.baseAddress else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var value = 0
            for index in at..<(at + count) {
                let byte = base[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"), base[10] == UInt8(ascii: " "),
            base[13] == UInt8(ascii: ":"), base[16] == UInt8(ascii: ":"), base[19] == UInt8(ascii: " "),
            base[20] == UInt8(ascii: "+") || base[20] == UInt8(ascii: "-"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2)
        else { return nil }
        guard (1...12).contains(month), (1...CalendarDate.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60
        else { return nil }
        let offset = (offsetHours * 3600 + offsetMinutes * 60) * (base[20] == UInt8(ascii: "-") ? -1 : 1)
        let days = CalendarDate.daysSince1970(year: year, month: month, day: day)
        let local = days * 86_400 + hour * 3600 + minute * 60 + second
        return LocalInstant(Date(timeIntervalSince1970: TimeInterval(local - offset)), offsetSeconds: offset)
    }

    /// The instant `text` denotes (a convenience for values already held as a String).
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }
}
