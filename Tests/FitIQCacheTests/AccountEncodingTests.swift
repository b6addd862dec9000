import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

@testable import FitIQCache

/// `account.json` is written from parts: the history's index and summaries are encoded again only when
/// they changed. The bytes must be those of encoding the whole file, whatever the parts held.
struct AccountEncodingTests {
    private func stored(entries count: Int, name: String, journal: Int = 0) -> StoredAccount {
        var state = CacheFixtures.state(name: name)
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let entries = (0..<count).map { index in
            ProgressEntry(
                serverId: "p-\(index)", quantity: 170 + Double(index % 9) / 10,
                loggedAt: start.addingTimeInterval(Double(index) * 3_600), source: .server)
        }
        var index = HistoryIndex()
        index.journal = entries.prefix(journal).map { .put($0, previous: nil) }
        state.history.entries = []
        return StoredAccount(
            state: state, index: index, summaries: [ProgressEntry.heightType: HistorySummary(of: entries)],
            inlineHistory: nil)
    }

    @Test func theBytesAreTheWholeFilesWhateverThePartsKept() throws {
        let first = stored(entries: 500, name: "Ada")
        var parts: AccountFileV2.EncodedParts?
        #expect(try AccountFileV2.encode(first, reusing: &parts) == CacheFile<AccountFileV2>.encode(first))

        // A profile change: both parts are reused, and the bytes still match.
        let renamed = stored(entries: 500, name: "Ada Lovelace")
        let reused = try AccountFileV2.encode(renamed, reusing: &parts)
        #expect(reused == (try CacheFile<AccountFileV2>.encode(renamed)))
        #expect(reused != (try CacheFile<AccountFileV2>.encode(first)))

        // The history changed: neither stale part is written.
        let longer = stored(entries: 501, name: "Ada Lovelace", journal: 3)
        #expect(try AccountFileV2.encode(longer, reusing: &parts) == CacheFile<AccountFileV2>.encode(longer))
        let decoded = try #require(CacheFile<AccountFileV2>.value(try AccountFileV2.encode(longer, reusing: &parts)))
        #expect(decoded == longer)
    }
}
