import FitIQCore
import FitIQTestSupport
import Foundation

/// A clock whose sleeps return at once after moving the shared time forward: retries and backoffs
/// run against the live server without the test waiting for them.
struct SkippingClock: DatedClock {
    let shared: DevServerClock

    struct Instant: InstantProtocol {
        var date: Date

        func advanced(by duration: Duration) -> Instant {
            let parts = duration.components
            return Instant(date: date.addingTimeInterval(Double(parts.seconds) + Double(parts.attoseconds) / 1e18))
        }

        func duration(to other: Instant) -> Duration { .seconds(other.date.timeIntervalSince(date)) }

        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.date < rhs.date }
    }

    var minimumResolution: Duration { .zero }

    func date(of instant: Instant) -> Date { instant.date }
    var now: Instant { Instant(date: shared()) }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let seconds = deadline.date.timeIntervalSince(shared())
        if seconds > 0 { shared.advance(by: seconds) }
        await Task.yield()
    }
}
