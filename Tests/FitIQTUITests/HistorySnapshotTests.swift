import FitIQCore
import Foundation
import Testing

@testable import FitIQTUI

/// The first frame draws the history from the cache's summary; the whole history replaces it once
/// read, and the screen shows the same latest entries and extent either way.
struct HistorySnapshotTests {
    /// `count` height entries, one a day back from `fixedNow`, the newest 181 cm.
    private func account(entries count: Int) -> AccountState {
        var state = fixtureAccount()
        state.history.entries = (0..<count).map { day in
            ProgressEntry(
                serverId: "e\(day)", quantity: day == 0 ? 181 : 170 + Double(day % 7) / 2,
                loggedAt: fixedNow.addingTimeInterval(-Double(day) * 86_400), source: .server)
        }
        return state
    }

    @Test func theSummaryDrawsWhatTheWholeHistoryDraws() {
        let full = account(entries: 5_000)
        var overview = AccountOverview(full: full)
        overview.state.history.entries = overview.summaries[ProgressEntry.heightType]?.latest ?? []
        overview.isComplete = false

        let partial = AccountView(email: "jane@example.com", server: "s", overview: overview, timeZone: .utc)
        let whole = AccountView(email: "jane@example.com", server: "s", state: full)

        #expect(partial.history(of: .height).count == 5_000 && whole.history(of: .height).count == 5_000)
        #expect(partial.history(of: .height).entries.count == HistorySummary.latestLimit)
        #expect(whole.history(of: .height).entries.count == 5_000)
        #expect(partial.history(of: .height).entries.first?.quantity == 181)
        #expect(partial.history(of: .height).chart.count <= HistorySummary.seriesLimit)
        #expect(partial.history(of: .height).chart == whole.history(of: .height).chart)
        var state = profileState(width: 120, height: 30)
        state.account = partial
        let first = screen(state).lines
        state.account = whole
        #expect(screen(state).lines == first)
        #expect(first.contains { $0.contains("181.0 cm") })
    }

    @Test func aNarrowChartSummarySaysHowManyEntriesTheWholeHistoryHas() {
        let points = (0..<3).map { index in
            ProgressEntry(quantity: 170, loggedAt: fixedNow.addingTimeInterval(Double(index) * 86_400), source: .server)
        }
        let line = HistoryChart.summary(points, metric: .height, unitSystem: .metric, timeZone: .utc, total: 4_321)
        #expect(line.contains("4321 entries since"))
    }
}
