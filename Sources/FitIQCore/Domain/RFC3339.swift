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

    /// The instant `text` names, or `nil` when it is not RFC 3339.
    public static func parse(_ text: String) -> Date? {
        if let instant = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) {
            return instant
        }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
