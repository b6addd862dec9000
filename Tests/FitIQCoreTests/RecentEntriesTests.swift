import FitIQCore
import FitIQTestBasics
import Foundation
import Synchronization
import Testing

/// A change written for the latest entries (``RecentAccountState``) sees them alone, and runs again on
/// every entry when it did more than add newer ones: the in-memory store behaves as the file store does.
struct RecentEntriesTests {
    /// `count` weights, one a day up to `start`, and 3 heights.
    private func longHistory(weights count: Int) -> AccountState {
        var state = syncedState()
        let day: TimeInterval = 86_400
        state.history.entries =
            (0..<count).map { index in
                ProgressEntry(
                    serverId: "w\(index)", type: Metric.weight.type, quantity: 70 + Double(index % 10) / 10,
                    loggedAt: start.addingTimeInterval(-Double(count - index) * day), source: .server)
            }
            + (0..<3).map { index in
                ProgressEntry(
                    serverId: "h\(index)", quantity: 180, loggedAt: start.addingTimeInterval(-Double(index) * day),
                    source: .server)
            }
        return state
    }

    @Test func aChangeIsGivenEachMetricsLatestEntriesOnly() async throws {
        let store = InMemoryProfileStore(longHistory(weights: 500))
        let seen = try await store.updateRecent { state in
            Metric.all.map { metric in state.history(of: metric).count }
        }
        #expect(seen == [3, HistorySummary.latestLimit] + Array(repeating: 0, count: Metric.all.count - 2))
    }

    @Test func aNewestEntryIsAddedWithoutASecondRun() async throws {
        let store = InMemoryProfileStore(longHistory(weights: 500))
        let runs = Mutex(0)
        try await store.updateRecent { state in
            runs.withLock { $0 += 1 }
            state.record(.weight, 71, measuredAt: start, source: .manual)
        }
        #expect(runs.withLock { $0 } == 1)
        let whole = await store.state
        #expect(whole.history(of: .weight).count == 501)
        #expect(whole.history(of: .weight).first?.quantity == 71)
    }

    @Test func aBackdatedEntryRunsAgainOnEveryEntryAndLosesNone() async throws {
        let store = InMemoryProfileStore(longHistory(weights: 500))
        let given = Mutex<[Int]>([])
        let backdated = start.addingTimeInterval(-400 * 86_400)
        try await store.updateRecent { state in
            given.withLock { $0.append(state.history(of: .weight).count) }
            state.record(.weight, 90, measuredAt: backdated, source: .manual)
        }
        #expect(given.withLock { $0 } == [HistorySummary.latestLimit, 500])
        let weights = await store.state.history(of: .weight)
        #expect(weights.count == 501)
        #expect(weights.filter { $0.loggedAt == backdated && $0.quantity == 90 }.count == 1)
    }

    @Test func anOldEntryAskedForIsGivenAndChangedInPlaceWithoutASecondRun() async throws {
        let store = InMemoryProfileStore(longHistory(weights: 500))
        let old = try #require(await store.state.history(of: .weight).last)
        let runs = Mutex<[Int]>([])
        try await store.updateRecent(including: [EntryLocation(old)]) {
            state in
            runs.withLock { $0.append(state.history(of: .weight).count) }
            state.history.markSynced(old.id, serverId: "server-old")
        }
        #expect(runs.withLock { $0 } == [HistorySummary.latestLimit + 1])
        let weights = await store.state.history(of: .weight)
        #expect(weights.count == 500)
        #expect(weights.last?.serverId == "server-old")
    }

    @Test func anEntryRemovedFromTheLatestRunsAgainOnEveryEntry() async throws {
        let store = InMemoryProfileStore(longHistory(weights: 100))
        let runs = Mutex(0)
        try await store.updateRecent { state in
            runs.withLock { $0 += 1 }
            state.history.removeAll { $0.type == Metric.weight.type }
        }
        #expect(runs.withLock { $0 } == 2)
        #expect(await store.state.history(of: .weight).isEmpty)
    }

    @Test func aDiscardedRemovalBringsBackTheEntryAsItWas() throws {
        var state = longHistory(weights: 3)
        let index = try #require(state.history.firstIndex { $0.id == state.history.latest(of: .weight)?.id })
        state.history[index].notes = "after the run"
        state.history[index].source = .health
        let weight = state.history[index]
        try state.removeEntry(weight)
        #expect(state.outbox.deletions.count == 1)
        state.discard(.deletion(weight.id))
        let back = try #require(state.history.first { $0.id == weight.id })
        #expect(back == weight)  // its metric, value, notes and source
        #expect(state.history(of: .height).count == 3)
    }
}
