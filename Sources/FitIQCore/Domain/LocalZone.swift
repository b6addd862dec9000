#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The user's local time: the offset from UTC in force at each instant, daylight saving time included.
///
/// Without ICU, Foundation's `TimeZone.current` is always GMT and `TimeZone(identifier:)` is `nil`,
/// so the offset comes from elsewhere: the composition root passes one read from the C library
/// (`localtime_r`, which reads the system's tzdata and `TZ`); tests pass fixed or rule-based zones.
public struct LocalZone: Sendable {
    private let offset: @Sendable (Date) -> Int

    /// A zone whose offset at each instant, in seconds east of UTC, is `secondsEastOfUTC(instant)`.
    public init(secondsEastOfUTC: @escaping @Sendable (Date) -> Int) {
        offset = secondsEastOfUTC
    }

    /// Coordinated Universal Time.
    public static let utc = LocalZone { _ in 0 }

    /// A zone that is always `seconds` east of UTC.
    public static func fixed(secondsEastOfUTC seconds: Int) -> LocalZone {
        LocalZone { _ in seconds }
    }

    /// The offset from UTC at `instant`, in seconds east.
    public func secondsEastOfUTC(at instant: Date) -> Int {
        offset(instant)
    }

    /// Seconds since 1970 on the local wall clock at `instant` (for calendar arithmetic).
    func localSeconds(at instant: Date) -> Int64 {
        Int64(instant.timeIntervalSince1970.rounded(.down)) + Int64(offset(instant))
    }
}
