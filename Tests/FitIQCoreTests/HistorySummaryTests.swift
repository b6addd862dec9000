import Foundation
import Testing

@testable import FitIQCore

/// A summary's recent points: every entry of the last weeks, kept as entries are appended exactly as
/// a summary made again from the whole history keeps them.
struct HistorySummaryTests {
    private let start = Date(timeIntervalSince1970: 1_790_000_000)

    private func water(_ day: Int, hour: Double = 0, _ liters: Double) -> ProgressEntry {
        ProgressEntry(
            type: Metric.water.type, quantity: liters,
            loggedAt: start.addingTimeInterval(Double(day) * 86_400 + hour * 3_600), source: .manual)
    }

    @Test func recentPointsAppendedAreThoseOfTheWholeHistory() {
        var entries = (0..<60).map { water($0, 0.25 + Double($0 % 4) / 10) }
        var summary = HistorySummary(of: entries)
        for day in 60..<100 {
            let entry = water(day, hour: 3, 0.5)
            entries.append(entry)
            summary = summary.appending(entry)
        }
        let whole = HistorySummary(of: entries)
        #expect(summary.recent == whole.recent)
        #expect(summary.recentSince == whole.recentSince)
        // Since 32 days before the newest (day 99, 03:00): day 67 at 03:00 and every day after it.
        #expect(summary.recent.count == 33)
        #expect(summary.recentHolds(since: start.addingTimeInterval(67 * 86_400 + 3 * 3_600)))
        #expect(!summary.recentHolds(since: start.addingTimeInterval(67 * 86_400)))
    }

    /// Past the limit the newest points stay, and `recentSince` moves past every point cut, also past
    /// points logged at the same instant as the last one cut.
    @Test func aMonthOfTooManyEntriesKeepsTheNewestAndSaysSince() throws {
        let entries = (0..<(HistorySummary.recentLimit + 10)).map { water(0, hour: Double($0 / 2) / 60, 0.1) }
        let summary = HistorySummary(of: entries)
        #expect(summary.recent.count <= HistorySummary.recentLimit)
        #expect(summary.recent.count >= HistorySummary.recentLimit - 1)
        let since = try #require(summary.recentSince)
        #expect(entries.filter { $0.loggedAt >= since }.count == summary.recent.count)
    }

    /// A summary written by a build before recent points gains none by appending: one new entry is
    /// not all of them.
    @Test func anOlderSummaryGainsNoRecentPointsByAppending() {
        var older = HistorySummary(of: [water(0, 1)])
        older.recent = []
        older.recentSince = nil
        let appended = older.appending(water(1, 2))
        #expect(appended.recentSince == nil && appended.recent.isEmpty)
    }
}
