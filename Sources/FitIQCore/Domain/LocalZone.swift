import Synchronization

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
///
/// Two zones are equal when they are the same zone: made by the same call of
/// ``init(secondsEastOfUTC:)``, or fixed at the same offset (what a drawing made in one can be reused for).
public struct LocalZone: Sendable, Equatable {
    private let offset: @Sendable (Date) -> Int
    private let identity: Identity

    private enum Identity: Equatable {
        case made(UInt64)
        case fixed(Int)
    }

    /// Numbers each zone made from a function.
    private static let made = Atomic<UInt64>(0)

    /// A zone whose offset at each instant, in seconds east of UTC, is `secondsEastOfUTC(instant)`.
    public init(secondsEastOfUTC: @escaping @Sendable (Date) -> Int) {
        offset = secondsEastOfUTC
        identity = .made(Self.made.add(1, ordering: .relaxed).newValue)
    }

    private init(fixed seconds: Int) {
        offset = { _ in seconds }
        identity = .fixed(seconds)
    }

    public static func == (lhs: LocalZone, rhs: LocalZone) -> Bool { lhs.identity == rhs.identity }

    /// Coordinated Universal Time.
    public static let utc = LocalZone(fixed: 0)

    /// A zone that is always `seconds` east of UTC.
    public static func fixed(secondsEastOfUTC seconds: Int) -> LocalZone {
        LocalZone(fixed: seconds)
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
