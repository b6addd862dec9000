import FitIQTestBasics
import Foundation
import Testing

/// The manual clock the tests drive: a sleeper wakes when time is advanced to its deadline, or when
/// its task is cancelled, even one cancelled before it began to sleep.
struct ManualClockTests {
    @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async {
        let clock = ManualClock()
        let sleeper = Task {
            // Cancelled before it sleeps: it must not wait for the clock to move.
            withUnsafeCurrentTask { $0?.cancel() }
            return (try? await clock.sleep(for: .seconds(60))) == nil
        }
        #expect(await sleeper.value)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aSleeperWakesWhenTimeReachesItsDeadline() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }
}
