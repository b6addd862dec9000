import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `account.json` read with its summaries and without the history's index: what the first frame needs
/// (the index grows with the months of history, the rest does not).
struct AccountHead: Sendable {
    var state: AccountState
    var summaries: [String: HistorySummary]

    /// The overview it gives: the account with the latest entries of each history.
    var overview: AccountOverview {
        AccountOverview(
            state: state.with(RecentEntries(entries: summaries.values.flatMap(\.latest))), summaries: summaries,
            isComplete: false)
    }
}
