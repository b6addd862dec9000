import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCache

/// The parts `account.json` names (the history's index, each metric's summary): written only when they
/// change, read once, and a part lost or damaged costs nothing the server or the segments cannot give
/// back.
struct AccountPartsTests {
    private let now = Date(timeIntervalSince1970: 1_735_787_045.6785)  // 2025-01-02T03:04:05.678Z

    private func makeStore(in folder: URL) -> JSONFileProfileStore {
        let now = self.now
        return JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")), now: { now })
    }

    /// 300 heights and 300 weights, a day apart, synced: written as segments, an index and two summaries.
    private func seeded(in folder: URL) async throws -> AccountState {
        let entries = (0..<300).flatMap { day in
            [Metric.height, .weight].map { metric in
                ProgressEntry(
                    serverId: "\(metric.id)-\(day)", type: metric.type, quantity: 70 + Double(day % 9),
                    loggedAt: now.addingTimeInterval(-Double(day) * 86_400), source: .server)
            }
        }
        try await makeStore(in: folder).update { state in
            state = CacheFixtures.state(name: "Ada")
            state.history.entries = entries
        }
        return try await makeStore(in: folder).load()
    }

    private func part(_ prefix: String, of store: JSONFileProfileStore) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: store.historyFolder.path)
        let name = try #require(names.first { $0.hasPrefix(prefix) && !$0.contains(".corrupt-") })
        return store.historyFolder.appendingPathComponent(name)
    }

    /// A profile edit writes `account.json` alone; a logged weight that file and the weight's summary.
    @Test func aSaveWritesThePartsItChangedAndNoOther() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            _ = try await seeded(in: folder)
            let store = makeStore(in: folder)
            let heightSummary = try part("summary-height.", of: store)
            let index = try part("index.", of: store)

            try await store.update { $0.server.lastSyncAt = now }
            #expect(store.counters.filesWritten == 1)
            try await store.update { $0.record(.weight, 71.5, measuredAt: now + 60, source: .manual) }
            #expect(store.counters.filesWritten == 3)
            // The height's summary and the index are the files they were.
            #expect(try part("summary-height.", of: store) == heightSummary)
            #expect(try part("index.", of: store) == index)
            let overview = try await makeStore(in: folder).overview()
            #expect(overview.summaries[Metric.weight.type]?.latest.first?.quantity == 71.5)
            #expect(overview.summaries[Metric.weight.type]?.count == 301)
        }
    }

    /// A summary damaged on disk is moved aside and named; the next read makes it again from the
    /// history, which is whole, and the next save writes it.
    @Test func aDamagedSummaryIsMovedAsideAndMadeAgainFromTheHistory() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let seeded = try await seeded(in: folder)
            let store = makeStore(in: folder)
            let summary = try part("summary-weight.", of: store)
            try Data(#"{"schemaVersion": 1, "type": "weight", "summary": 4}"#.utf8).write(to: summary)

            await #expect {
                _ = try await store.load()
            } throws: { error in
                guard case CacheError.corrupt(let named, let movedTo, _) = error else { return false }
                return named == summary.path && movedTo == summary.path + ".corrupt-20250102T030405.678Z"
            }
            let state = try await store.load()
            #expect(state == seeded)
            #expect(try await store.overview().summaries[Metric.weight.type]?.count == 300)
            try await store.update { $0.server.lastSyncAt = now }
            let again = makeStore(in: folder)
            #expect(try await again.overview().summaries[Metric.weight.type]?.count == 300)
            #expect(try await again.load() == (try await store.load()))
        }
    }

    /// The index lost: the history's segments cannot be found, so the history is read from the server
    /// again by the next sync (as when a segment is lost), and the next save writes every part anew.
    @Test func aLostIndexMakesTheNextSyncReadTheHistoryAgain() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            _ = try await seeded(in: folder)
            let store = makeStore(in: folder)
            try FileManager.default.removeItem(at: try part("index.", of: store))

            // A read without the lock finds it gone and reads again under it.
            let overview = try await store.overview()
            #expect(overview.state.server.historyCheckedAt == nil)
            let state = try await store.load()
            #expect(state.history.count == 0)
            try await store.update { $0.server.lastSyncAt = now }
            let names = try FileManager.default.contentsOfDirectory(atPath: store.historyFolder.path)
            #expect(names.filter { $0.hasPrefix("index.") }.isEmpty)
            #expect(try await makeStore(in: folder).load().server.historyCheckedAt == nil)
        }
    }

    /// A file of version 2 (the index and summaries inside it) is read whole, and its first save
    /// writes version 3 with every part beside it, its summaries made from the history, losing nothing.
    @Test func aVersionTwoFileIsWrittenAsVersionThreeWithItsParts() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                    "Fixtures/account-v2"),
                to: store.folder)
            let before = try await store.load()
            let overviewBefore = try await makeStore(in: folder).overview()

            try await store.update { $0.server.lastSyncAt = now }

            let data = try Data(contentsOf: store.fileURL)
            let contents = try #require(CacheFile<AccountFileV3>.value(data))
            #expect(contents.older == nil)
            #expect(contents.files.summaries.keys.sorted() == overviewBefore.summaries.keys.sorted())
            var after = try await makeStore(in: folder).load()
            after.server.lastSyncAt = before.server.lastSyncAt
            #expect(after == before)
            // Its summaries made again from the whole history (an older build's keep no recent points).
            let summaries = try await makeStore(in: folder).overview().summaries
            for (type, summary) in summaries {
                let whole = HistorySummary(of: after.history.entries.filter { $0.type == type })
                #expect(summary.latest == whole.latest && summary.count == whole.count)
                #expect(summary.recentSince == whole.recentSince && summary.recent == whole.recent)
            }
        }
    }

    /// A summary's file keeps its latest entries a column per field: every field reads back as it was
    /// (a note, no server id, each source), and columns of different lengths are damage.
    @Test func aSummaryFileReadsBackItsLatestEntriesExactly() throws {
        let entries = (0..<6).map { index in
            ProgressEntry(
                serverId: index.isMultiple(of: 2) ? "w-\(index)" : nil, type: Metric.water.type,
                quantity: 0.25 * Double(index + 1), loggedAt: now.addingTimeInterval(Double(-index) * 3_600.125),
                notes: index == 3 ? "after a \"run\"" : nil,
                source: [ProgressEntry.Source.manual, .server, .import][index % 3])
        }
        let summary = HistorySummary(of: entries)
        let bytes = try CacheFile<HistorySummaryFile>.encode((Metric.water.type, summary))
        let read = try #require(CacheFile<HistorySummaryFile>.value(bytes))
        #expect(read.type == Metric.water.type)
        #expect(read.summary.latest == summary.latest)
        #expect(read.summary.recent == summary.recent && read.summary.recentSince == summary.recentSince)

        let uneven = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: #""quantity":["#, with: #""quantity":[1,"#)
        guard case .unreadable(let reason) = CacheFile<HistorySummaryFile>.decode(Data(uneven.utf8)) else {
            Issue.record("columns of different lengths were read")
            return
        }
        #expect(reason.contains("latest"))
    }
}
