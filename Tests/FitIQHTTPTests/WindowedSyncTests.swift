import FitIQDevServer
import FitIQTestSupport
import Foundation
import Synchronization
import Testing

@testable import FitIQCore

/// Height entries go to the development server in a bounded window of posts at once, and the server
/// stops cleanly with posts in flight.
@Suite(.timeLimit(.minutes(3)))
struct WindowedSyncTests {
    /// Counts the requests inside the server's latency delay, which each request waits out.
    final class InFlight: Sendable {
        private struct State {
            var now = 0
            var maximum = 0
            var watchers: [(Int, CheckedContinuation<Void, Never>)] = []
        }
        private let state = Mutex(State())

        var maximum: Int { state.withLock { $0.maximum } }
        func resetMaximum() { state.withLock { $0.maximum = $0.now } }

        /// The server's sleep: counted while it lasts.
        func sleep(_ duration: Duration) async throws {
            let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.now += 1
                state.maximum = max(state.maximum, state.now)
                let now = state.now
                let due = state.watchers.filter { $0.0 <= now }.map(\.1)
                state.watchers.removeAll { $0.0 <= now }
                return due
            }
            for watcher in woken { watcher.resume() }
            defer { state.withLock { $0.now -= 1 } }
            try await Task.sleep(for: duration)
        }

        /// Returns once `count` requests are in flight together.
        func waitFor(_ count: Int) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.now >= count { return true }
                    state.watchers.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// An account with one synced height and `count` older entries queued (posts only: none of them
    /// is the current height).
    private func queueOlderHeights(_ count: Int, on server: LiveServer, inFlight: Int) async throws -> Account {
        let account = try await server.register(server.accounts(progressPostsInFlight: inFlight))
        let today = CalendarDate(containing: server.now.date(), in: .utc)
        try await account.apply(.measurement(.height, 171, day: today))
        #expect(try await account.syncNow().isSynced)
        for day in 1...count {
            try await account.apply(.measurement(.height, 160 + Double(day) / 10, day: today.adding(days: -day)))
        }
        return account
    }

    @Test(arguments: [1, 8])
    func heightPostsOverlapUpToTheWindow(window: Int) async throws {
        let requests = InFlight()
        try await LiveServer.with(latencyMilliseconds: 200, sleep: requests.sleep) { server in
            let account = try await queueOlderHeights(16, on: server, inFlight: window)
            requests.resetMaximum()

            // Posts only: a sync's reads that follow have a window of their own.
            #expect(try await account.push().pending == 0)

            #expect(try await server.serverHeights(account).count == 17)
            if window == 1 {
                #expect(requests.maximum == 1)
            } else {
                #expect(requests.maximum > 1)
                #expect(requests.maximum <= window)
            }
        }
    }

    @Test func longHistoriesAreReadInOneWindowOfPagesOnceTheFirstGivesTheTotal() async throws {
        let requests = InFlight()
        let slow = Mutex(false)
        let sleep: @Sendable (Duration) async throws -> Void = { duration in
            // Filling the server takes no time; the history read waits out the latency.
            guard slow.withLock({ $0 }) else { return }
            try await requests.sleep(duration)
        }
        try await LiveServer.with(latencyMilliseconds: 100, sleep: sleep) { server in
            let writer = try await queueOlderHeights(949, on: server, inFlight: 8)
            // Weights and body fats too: every metric is read at once, within the same window (ten pages of
            // heights fill it, a window each would have ten in flight).
            let today = CalendarDate(containing: server.now.date(), in: .utc)
            for day in 1...150 {
                try await writer.apply(.measurement(.weight, 70 + Double(day) / 10, day: today.adding(days: -day)))
                try await writer.apply(
                    .measurement(.bodyFat, 20 + Double(day % 50) / 10, day: today.adding(days: -day)))
            }
            #expect(try await writer.syncNow().isSynced)
            slow.withLock { $0 = true }

            // A second machine signs in with an empty cache and reads the whole history.
            let reader = try await server.accounts(folder: "second").signIn(
                email: writer.email, password: "correct horse battery"
            ).account
            try await reader.refresh()

            let cached = try await reader.cached()
            #expect(cached.history(of: .weight).count == 150 && cached.history(of: .bodyFat).count == 150)
            let history = cached.history(of: .height)
            #expect(history.count == 950)
            #expect(Set(history.compactMap(\.serverId)).count == 950)
            #expect(requests.maximum > 1)
            #expect(requests.maximum <= 8)
        }
    }

    @Test func theServerStopsCleanlyWithPostsInFlightAndNothingIsLost() async throws {
        let requests = InFlight()
        try await LiveServer.with(latencyMilliseconds: 200, sleep: requests.sleep) { server in
            let account = try await queueOlderHeights(16, on: server, inFlight: 8)
            let sync = Task { try await account.syncNow() }
            await requests.waitFor(2)

            // Requests in flight are answered before the server lets go of its port; the rest wait.
            await server.stop()
            _ = try? await sync.value

            let history = try await account.cached().history(of: .height)
            #expect(history.count == 17)
            let sent = history.filter(\.isSynced).count
            #expect(sent >= 3, "the synced entry and the posts in flight at the stop")
            #expect(try await account.cached().pending.count == 17 - sent)
        }
    }
}
