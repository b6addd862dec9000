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
        // The style the text asks for first (a failed parse costs an error): a history's thousands of
        // whole-second dates skip the fractional one.
        let fractional = text.utf8.contains(UInt8(ascii: "."))
        let styles = [
            Date.ISO8601FormatStyle(includingFractionalSeconds: fractional),
            Date.ISO8601FormatStyle(includingFractionalSeconds: !fractional),
        ]
        return styles.lazy.compactMap { try? $0.parse(text) }.first
    }
}
