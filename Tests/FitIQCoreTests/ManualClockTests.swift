import FitIQTestBasics
import Foundation
import Testing

/// The manual clock the tests drive: a sleeper wakes when time is advanced to its deadline, or when
/// its task is cancelled, even one cancelled before it began to sleep; a clock whose sleeps skip ahead
/// moves to their deadlines at once; a server's latency is recorded without moving it; a clock that
/// follows the wall clock moves with it, and a server in another process reads what it was advanced.
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

    @Test func aSleepThatSkipsAheadMovesTheClockToItsDeadlineAtOnce() async throws {
        let clock = ManualClock(sleeps: .skipAhead)
        let start = clock.date()
        try await clock.sleep(for: .seconds(90))
        #expect(clock.now.offset == .seconds(90))
        #expect(clock.date() == start.addingTimeInterval(90))
        #expect(clock.sleepsBegun == 1)
        // A deadline already passed moves nothing.
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-60)))
        #expect(clock.now.offset == .seconds(90))
    }

    @Test func aSkippedSleepIsRecordedAndMovesNothing() {
        let clock = ManualClock()
        clock.skipSleep(for: .milliseconds(250))
        clock.skipSleep(for: .seconds(1))
        #expect(clock.skippedSleeps == [.milliseconds(250), .seconds(1)])
        #expect(clock.now.offset == .zero)
    }

    @Test func aClockThatFollowsTheWallClockMovesWithItAndByWhatItIsAdvanced() throws {
        let clock = ManualClock.followingTheWallClock()
        let first = clock.now
        let wall = ContinuousClock.now
        while ContinuousClock.now - wall < .milliseconds(2) {}  // the wall clock moves; nothing else does
        #expect(clock.now > first)
        clock.advance(by: .seconds(3600))
        #expect(abs(clock.date().timeIntervalSinceNow - 3600) < 60)
    }

    @Test func aMirrorHoldsTheSecondsAdvanced() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clock-offset")
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        try clock.mirror(to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "5.0\n")
        clock.advance(by: .milliseconds(1500))
        #expect(try String(contentsOf: file, encoding: .utf8) == "6.5\n")
    }
}
