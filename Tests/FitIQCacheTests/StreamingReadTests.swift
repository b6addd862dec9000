import FitIQCore
import Foundation
import Testing

@testable import FitIQCache

/// An export reads one metric's history a month at a time, from the segment files with the journal's
/// changes applied, and lists exactly what a whole read holds.
struct StreamingReadTests {
    @Test func aMetricIsReadMonthByMonthWithTheJournalApplied() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = JSONFileProfileStore(
                folder: folder.appendingPathComponent("account"),
                lock: AccountLock(file: folder.appendingPathComponent("lock")))
            let start = Date(timeIntervalSince1970: 1_780_000_000)
            var seeded: [ProgressEntry] = []
            for day in 0..<400 {
                let loggedAt = start - Double(day) * 86_400
                let kilograms = 80 - Double(day % 30) / 10
                seeded.append(
                    ProgressEntry(
                        serverId: "w-\(day)", type: Metric.weight.type, quantity: kilograms, loggedAt: loggedAt,
                        source: .server))
            }
            for week in 0..<100 {
                let loggedAt = start - Double(week) * 7 * 86_400
                seeded.append(ProgressEntry(serverId: "h-\(week)", quantity: 180, loggedAt: loggedAt, source: .server))
            }
            let history = seeded
            try await store.update { state in
                state = CacheFixtures.state(name: "Ada")
                state.history.entries = history
            }
            // Changes since the segments were written, held in the journal: a new weight, a removal, a
            // correction (a removal and a new entry at the same instant), a weight far in the past.
            try await store.update { state in
                state.record(.weight, 79.1, measuredAt: start + 3_600, source: .manual)
                _ = try? state.removeEntry(try #require(state.history.entry(of: .weight, named: "w-17")))
                _ = try? state.correctEntry(try #require(state.history.entry(of: .weight, named: "w-200")), to: 81.5)
                state.record(.weight, 90, measuredAt: start - 900 * 86_400, source: .manual)
            }
            let fresh = JSONFileProfileStore(
                folder: folder.appendingPathComponent("account"),
                lock: AccountLock(file: folder.appendingPathComponent("lock.2")))
            var streamed: [ProgressEntry] = []
            try await fresh.forEachEntry(of: .weight) { streamed.append($0) }

            let whole = try await fresh.load().history(of: .weight).reversed()
            #expect(streamed.map(\.id) == whole.map(\.id))
            // 400, one added, one removed, one corrected (removed and added again), one far older.
            #expect(streamed.count == 401)
            #expect(!streamed.contains { $0.serverId == "w-17" || $0.serverId == "w-200" })
            #expect(streamed.contains { $0.quantity == 81.5 })
            #expect(streamed.first?.quantity == 90)
            #expect(streamed.allSatisfy { $0.type == Metric.weight.type })
            #expect(zip(streamed, streamed.dropFirst()).allSatisfy { $0.loggedAt <= $1.loggedAt })
        }
    }
}
