#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The one source of time for sync and the editor: it sleeps (backoffs, the periodic sync), and each of
/// its instants is a date (timestamps, deadlines, the title bar's time). Tests give a manual clock, so
/// a backoff and the date it ends on move together.
public protocol DatedClock: Clock, Sendable where Duration == Swift.Duration {
    /// The date of `instant`.
    func date(of instant: Instant) -> Date
}

extension DatedClock {
    /// The date now.
    public func date() -> Date { date(of: now) }

    /// The date `duration` from now: a deadline on this clock.
    public func date(after duration: Duration) -> Date { date(of: now.advanced(by: duration)) }
}

/// The system's time: a continuous clock for sleeps, the wall clock for dates.
public struct SystemClock: DatedClock {
    private let continuous = ContinuousClock()

    public init() {}

    public var now: ContinuousClock.Instant { continuous.now }
    public var minimumResolution: Duration { continuous.minimumResolution }

    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try await continuous.sleep(until: deadline, tolerance: tolerance)
    }

    /// The wall-clock date of `instant`: now, moved by how far `instant` is from now.
    public func date(of instant: ContinuousClock.Instant) -> Date {
        let offset = continuous.now.duration(to: instant).components
        return Date().addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }
}
