import Foundation
import Testing

@testable import FitIQCore

/// The dates a server answers with (`YYYY-MM-DDThh:mm:ss[.fraction]Z`) are read without Foundation's
/// parser, to its instant; any other text is read by the parser as before.
struct RFC3339Tests {
    @Test func aUTCDateIsReadToTheParsersInstant() throws {
        // Every 37 hours and 13 seconds from 1900 to 2100: each time of day, month and leap year; whole
        // seconds exactly, and with fractions of one to nine digits within a microsecond.
        let start = -2_208_988_800.0
        for step in 0..<47_000 {
            let instant = Date(timeIntervalSince1970: start + Double(step) * (37 * 3_600 + 13))
            let text = RFC3339.format(instant)
            let read = try #require(RFC3339.utcForm(text), "\(text)")
            #expect(read == (try Date.ISO8601FormatStyle().parse(text)), "\(text)")
            #expect(read == instant, "\(text)")

            let digits = String(String(step * 7_919 % 1_000_000_000 + 1_000_000_000).dropFirst().prefix(step % 9 + 1))
            let fractional = String(text.dropLast()) + "." + digits + "Z"
            let parsed = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(fractional)
            let fast = try #require(RFC3339.utcForm(fractional), "\(fractional)")
            #expect(abs(fast.timeIntervalSince(parsed)) < 1e-6, "\(fractional)")
        }
    }

    @Test(arguments: [
        "2025-01-01T12:00:60Z", "2025-01-01t12:00:00Z", "2025-01-01T12:00:00z", "2025-01-01T12:00:00+01:00",
        "2025-01-01T12:00:00.Z", "2025-01-01T12:00:00.1234567891Z", "2025-01-01T12:00:00Z ", "2025-01-01T12:00Z",
        "2025-1-01T12:00:00Z", "",
    ])
    func anyOtherTextIsLeftToTheParser(text: String) {
        #expect(RFC3339.utcForm(text) == nil)
        let parser = [true, false].lazy.compactMap {
            try? Date.ISO8601FormatStyle(includingFractionalSeconds: $0).parse(text)
        }.first
        #expect(RFC3339.parse(text) == parser)
    }

    /// A day the month lacks, or an hour or minute past the day's end, is no time in any zone: the parser
    /// alone would roll `2025-02-30T12:00:00+01:00` over to 2 March.
    @Test(arguments: [
        "2025-02-30T12:00:00Z", "2025-02-30T12:00:00+01:00", "2025-04-31T08:00:00-05:00", "2025-13-01T00:00:00Z",
        "2025-13-01T00:00:00+01:00", "2023-02-29T12:00:00.5+01:00", "2025-01-01T24:00:00Z",
        "2025-01-01T24:00:00+01:00", "2025-01-01T12:60:00Z", "2025-01-01T12:60:00-03:30",
    ])
    func aDayOrATimeThatDoesNotExistIsRefused(text: String) {
        #expect(RFC3339.utcForm(text) == nil)
        #expect(RFC3339.parse(text) == nil)
    }

    @Test func aLeapDayAndTheDaysLastMinuteAreRead() throws {
        #expect(RFC3339.parse("2024-02-29T23:59:00+01:00") == (try #require(RFC3339.parse("2024-02-29T22:59:00Z"))))
    }
}
