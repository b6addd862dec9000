import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// How many progress posts go out at once: a bounded window that a 429 narrows.
struct ProgressWindowTests {
    @Test func aTooManyRequestsHalvesTheWindowAndWholeBatchesWidenItAgain() {
        var window = ProgressWindow(limit: 8)
        #expect(window.size == 8)
        window.record(overloaded: true, acknowledged: false)
        #expect(window.size == 4)
        window.record(overloaded: true, acknowledged: false)
        window.record(overloaded: true, acknowledged: false)
        window.record(overloaded: true, acknowledged: false)
        #expect(window.size == 1, "never below one")
        window.record(overloaded: false, acknowledged: false)
        #expect(window.size == 1, "a batch with other failures does not widen it")
        for _ in 1...20 { window.record(overloaded: false, acknowledged: true) }
        #expect(window.size == 8, "never above the limit")
    }

    @Test(arguments: [(0, 1), (1, 1), (8, 8), (32, 32), (1000, ProgressWindow.maximumLimit)])
    func theLimitIsKeptInItsRange(asked: Int, limit: Int) {
        #expect(ProgressWindow(limit: asked).limit == limit)
    }

    @Test func aServerAnswering429ToOnePostNarrowsTheEnginesWindow() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.logSeptemberHeights(16)
        try await account.engine.drain()  // the newest height's PATCH and 16 posts, nothing refused
        await harness.backend.clearRequests()
        #expect(await account.engine.progressPostsInFlight == 8)
        for day in 1...16 {
            try await account.apply(
                .measurement(.height, 150 + Double(day) / 10, day: CalendarDate(year: 2026, month: 8, day: day)))
        }
        await harness.backend.inject(.fail(.unavailable(status: 429, message: "Too many requests")), into: .logProgress)

        let report = try await account.engine.drain()

        // The first batch of 8: one answered 429 and waits its backoff; the window is now 4. Posts
        // answered before the 429 was may have started more of the batch (the window slides as answers
        // arrive, in whatever order the tasks run), but none starts after it: every post sent but the
        // refused one was taken, and the rest wait.
        let sent = await harness.backend.requests(.logProgress).count
        #expect((8...16).contains(sent))
        #expect(report.pending == 16 - (sent - 1))
        #expect(await account.engine.progressPostsInFlight == 4)
        #expect(report.lastProblem?.description.contains("HTTP 429") == true)
    }

    @Test func postsAreClaimedAndAcknowledgedFourWindowsPerCacheWrite() async throws {
        let harness = TestHarness(progressPostsInFlight: 1)
        let account = try await harness.signedIn()
        try await account.logSeptemberHeights(5)
        let store = harness.store(of: account)
        let before = await store.saveCount
        try await account.engine.drain()
        #expect(await harness.backend.requests(.logProgress).count == 5)
        // With one in flight, a batch holds 4 posts: batches of 4 (with the PATCH beside them) and 1, two
        // writes each (claimed, then acknowledged).
        #expect(await store.saveCount - before == 4)
    }
}
