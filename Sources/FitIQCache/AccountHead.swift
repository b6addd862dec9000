import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `account.json` read without its history's index: what the first frame needs (the index grows
/// with the months of history, the rest does not).
struct AccountHead: Sendable {
    var state: AccountState
    var summaries: [String: HistorySummary]

    /// The overview it gives: the account with the latest entries of each history.
    var overview: AccountOverview {
        AccountOverview(
            state: state.with(RecentEntries(entries: summaries.values.flatMap(\.latest))), summaries: summaries,
            isComplete: false)
    }

    /// The head of `data`, or `nil` when it is not a readable file of version 2 (reading it whole says
    /// what it is).
    init?(_ data: Data) {
        guard let file = try? CacheFileDecoding.decoder.decode(HeadV2.self, from: data),
            file.schemaVersion == AccountFileV2.schemaVersion, let state = try? file.state.domain(),
            let summaries = try? file.summaries.mapValues({ try $0.domain() })
        else { return nil }
        self.init(state: state, summaries: summaries)
    }

    init(state: AccountState, summaries: [String: HistorySummary]) {
        self.state = state
        self.summaries = summaries
    }

    /// The whole file: this head with the index decoded from `data`, the same bytes; `nil` when the
    /// index cannot be read.
    func completed(from data: Data) -> StoredAccount? {
        guard let file = try? CacheFileDecoding.decoder.decode(IndexV2.self, from: data),
            let index = try? file.history.domain()
        else { return nil }
        return StoredAccount(state: state, index: index, summaries: summaries)
    }

    private struct HeadV2: Decodable {
        var schemaVersion: Int
        var state: AccountFile.StateV1
        var summaries: [String: AccountFileV2.SummaryV2]
    }

    private struct IndexV2: Decodable {
        var history: AccountFileV2.HistoryIndexV2
    }
}
