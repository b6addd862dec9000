import FitIQCore
import Foundation
import Synchronization
import Testing

@testable import FitIQCache

/// The cache laid out for years of data: a save writes `account.json` alone, whatever the history's
/// size; the history lives in month segments, rewritten only when the journal is full.
struct HistoryLayoutTests {
    private func makeStore(in folder: URL, now: Date = Date()) -> JSONFileProfileStore {
        JSONFileProfileStore(
            folder: folder.appendingPathComponent("account"),
            lock: AccountLock(file: folder.appendingPathComponent("lock")), now: { now })
    }

    /// `count` synced height entries, one a day back from 2026-11-01, as a history sync leaves them.
    private func history(_ count: Int) -> [ProgressEntry] {
        let start = Date(timeIntervalSince1970: 1_793_491_200)  // 2026-11-01
        return (0..<count).map { day in
            ProgressEntry(
                serverId: "p-\(day)", quantity: 170 + Double(day % 50) / 10,
                loggedAt: start.addingTimeInterval(-Double(day) * 86_400), source: .server)
        }
    }

    private func seeded(_ store: JSONFileProfileStore, entries: Int) async throws {
        let entries = history(entries)
        try await store.update { state in
            state = CacheFixtures.state(name: "Ada")
            state.history.entries = entries
        }
    }

    private func historyFiles(_ store: JSONFileProfileStore) -> [String] {
        fileNames(in: store.historyFolder).filter { !$0.hasPrefix(".") }
    }

    /// A logged height writes `account.json` and the height's summary, both small, and no segment:
    /// the one summary file replaces the one before it.
    @Test func oneSaveWritesOnlyTheSmallAccountFileWhateverTheHistorysSize() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await seeded(store, entries: 10_000)
            #expect(historyFiles(store).count > 300)
            let before = store.counters
            let segmentsBefore = historyFiles(store)

            _ = try await store.update { state in
                state.record(.height, 181, measuredAt: Date(), source: .manual)
            }

            let after = store.counters
            #expect(after.filesWritten - before.filesWritten == 2)
            #expect(after.bytesWritten - before.bytesWritten < 32 * 1024)
            // Nothing was read again: the store kept what it wrote.
            #expect(after.filesDecoded == before.filesDecoded && after.partsDecoded == before.partsDecoded)
            let summaries = { (names: [String]) in names.filter { $0.hasPrefix("summary-height.") } }
            #expect(
                historyFiles(store).filter { !$0.hasPrefix("summary-") }
                    == segmentsBefore.filter { !$0.hasPrefix("summary-") })
            #expect(
                summaries(historyFiles(store)).count == 1 && summaries(historyFiles(store)) != summaries(segmentsBefore)
            )
            let reread = try await makeStore(in: folder).load()
            #expect(reread.history.count == 10_001)
            #expect(reread.history(of: .height).first?.quantity == 181)
        }
    }

    /// Every metric's summary travels in `account.json`: with 10,000 entries of each of the body's
    /// three metrics (fractional seconds, unrounded pounds), a save still writes less than 64 KB. (The
    /// other metrics' summaries are a few entries each, ``theOtherMetricsSummariesAreAFewEntries()``;
    /// their months' index still grows with the history, docs/benchmarks.md "bench-saves".)
    @Test func theAccountFileStaysSmallWithLongHistoriesOfEveryMetric() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            let start = Date(timeIntervalSince1970: 1_793_491_200.123_456)
            var entries: [ProgressEntry] = []
            for metric in Metric.body {
                for index in 0..<10_000 {
                    entries.append(
                        ProgressEntry(
                            serverId: "\(metric.id)-\(UUID().uuidString.lowercased())", type: metric.type,
                            quantity: 20 + Double(index % 97) * 0.453_592_37, loggedAt: start - Double(index) * 3_271.7,
                            source: .server))
                }
            }
            let history = entries
            try await store.update { state in
                state = CacheFixtures.state(name: "Ada")
                state.history.entries = history
            }
            try await store.update { $0.profile = $0.profile?.updatingMetadata(ProfileMetadata(name: "Bo"), at: start) }
            let size = try Data(contentsOf: store.folder.appendingPathComponent("account.json")).count
            #expect(size < 64 * 1_024, "account.json is \(size) bytes")
            let overview = try await makeStore(in: folder).overview()
            #expect(Metric.body.allSatisfy { overview.summaries[$0.type]?.count == 10_000 })
        }
    }

    /// A summary of steps, water or sleep keeps its four newest entries and no series: the profile
    /// screen lists and charts the body alone, and Today reads the weeks it shows from the months.
    @Test func theOtherMetricsSummariesAreAFewEntries() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            let start = Date(timeIntervalSince1970: 1_793_491_200)
            let others = Metric.all.filter { !Metric.body.contains($0) }
            let history = others.flatMap { metric in
                (0..<500).map { index in
                    ProgressEntry(
                        serverId: "\(metric.id)-\(index)", type: metric.type, quantity: metric.allowedRange.upperBound,
                        loggedAt: start - Double(index) * 86_400, source: .server)
                }
            }
            try await store.update { state in
                state = CacheFixtures.state(name: "Ada")
                state.history.entries = history
            }
            let overview = try await makeStore(in: folder).overview()
            for metric in others {
                let summary = try #require(overview.summaries[metric.type])
                #expect(summary.count == 500 && summary.latest.count == HistorySummary.otherLatestLimit)
                #expect(summary.latest.first?.loggedAt == start && summary.series.isEmpty)
            }
        }
    }

    @Test func aFullJournalRewritesOnlyTheSegmentsItTouchedAndDeletesTheOldOnes() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await seeded(store, entries: 400)
            let old = Set(historyFiles(store))
            let logged = Date(timeIntervalSince1970: 1_796_515_200)  // 2026-12-06, a month of its own
            // Left behind by a cache moved aside: no file names it.
            let orphan = store.historyFolder.appendingPathComponent("height-1999-01.1.json")
            try Data("{}".utf8).write(to: orphan)

            for index in 0...HistoryLayoutTestsLimit.journal {
                _ = try await store.update { state in
                    state.record(
                        .height,
                        180 + Double(index) / 10, measuredAt: logged.addingTimeInterval(Double(index)), source: .manual)
                }
            }

            let now = Set(historyFiles(store))
            #expect(!FileManager.default.fileExists(atPath: orphan.path))
            // The untouched months keep their files; the new month got one, and the index and the
            // height's summary were written anew in place of theirs.
            let segments = { (names: Set<String>) in names.filter { $0.hasPrefix("height-") } }
            #expect(segments(now).subtracting(segments(old)).count == 1)
            #expect(segments(old).subtracting(segments(now)).isEmpty)
            #expect(segments(now).subtracting(segments(old)).first?.hasPrefix("height-2026-12.") == true)
            #expect(now.subtracting(segments(now)).count == 2 && old.subtracting(segments(old)).isDisjoint(with: now))
            let reread = try await makeStore(in: folder).load()
            #expect(reread == (try await store.load()))
            #expect(reread.history.count == 400 + HistoryLayoutTestsLimit.journal + 1)
        }
    }

    @Test func correctionsAndRemovalsSurviveARestartBeforeAndAfterTheJournalIsFolded() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await seeded(store, entries: 200)
            let state = try await store.load()
            let victim = state.history[10]
            let moved = state.history[20]
            try await store.update { state in
                state.history.removeAll { $0.id == victim.id }
                let index = state.history.firstIndex { $0.id == moved.id }!
                // Logged a year later: it changes segment.
                state.history[index].loggedAt = moved.loggedAt.addingTimeInterval(365 * 86_400)
                state.history[index].quantity = 199
            }
            var reread = try await makeStore(in: folder).load()
            #expect(!reread.history.contains { $0.id == victim.id })
            #expect(reread.history.first { $0.id == moved.id }?.quantity == 199)
            #expect(reread == (try await store.load()))

            // Fold the journal, then read again.
            for index in 0...HistoryLayoutTestsLimit.journal {
                try await store.update { $0.history[index].notes = "note \(index)" }
            }
            reread = try await makeStore(in: folder).load()
            #expect(reread == (try await store.load()))
            #expect(!reread.history.contains { $0.id == victim.id })
            #expect(reread.history.count == 199)
        }
    }

    @Test func anotherProcesssSaveIsSeenWithoutReadingTheSegmentsAgain() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let mine = makeStore(in: folder)
            try await seeded(mine, entries: 1_000)
            _ = try await mine.load()
            // Another process (another store object on the same files) logs a height.
            let theirs = makeStore(in: folder)
            _ = try await theirs.update { $0.record(.height, 185, measuredAt: Date(), source: .manual) }
            let decodedBefore = mine.counters.filesDecoded

            let seen = try await mine.load()

            #expect(seen.history(of: .height).first?.quantity == 185)
            #expect(seen == (try await theirs.load()))
            // account.json only.
            #expect(mine.counters.filesDecoded - decodedBefore == 1)
        }
    }

    @Test func aColdProcesssNewMeasurementReadsAndWritesTheAccountFileAlone() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            try await seeded(makeStore(in: folder), entries: 5_000)
            let cold = makeStore(in: folder)
            let logged = Date(timeIntervalSince1970: 1_796_515_200)  // after every seeded entry

            let current = try await cold.updateRecent { state in
                state.record(.height, 182.5, measuredAt: logged, source: .manual).isCurrentHeight
            }

            #expect(current)
            // account.json, and the parts it names: the index and the height's summary.
            #expect(cold.counters.filesDecoded == 1 && cold.counters.partsDecoded == 2)
            // account.json and the height's summary.
            #expect(cold.counters.filesWritten == 2)
            let reread = try await makeStore(in: folder).load()
            #expect(reread.history.count == 5_001)
            #expect(reread.history(of: .height).first?.quantity == 182.5)
            #expect(reread.profile?.heightCm == 182.5)
            #expect(reread.outbox.progress.count == 1)
            let summary = try #require(try await makeStore(in: folder).overview().summaries[ProgressEntry.heightType])
            let exact = HistorySummary(of: reread.history)
            #expect(summary.count == exact.count && summary.first == exact.first && summary.last == exact.last)
            #expect(summary.latest == exact.latest)
            #expect(summary.series.last == HistorySummary.Point(at: logged, value: 182.5))
        }
    }

    @Test func aColdProcesssOlderMeasurementIsRecordedOnTheWholeHistory() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            try await seeded(makeStore(in: folder), entries: 2_000)
            let cold = makeStore(in: folder)
            let longAgo = Date(timeIntervalSince1970: 1_500_000_000)  // 2017, among the seeded entries

            let current = try await cold.updateRecent { state in
                state.record(.height, 150, measuredAt: longAgo, source: .manual).isCurrentHeight
            }

            // Not the newest: it did not become the current height, and the whole history was read.
            #expect(!current)
            #expect(cold.counters.filesDecoded > 1)
            let reread = try await makeStore(in: folder).load()
            #expect(reread.history.count == 2_001)
            let summary = try #require(try await makeStore(in: folder).overview().summaries[ProgressEntry.heightType])
            #expect(summary == HistorySummary(of: reread.history))
        }
    }

    @Test func aColdProcesssAnswerToAnOldPostReadsThatMonthAlone() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await seeded(store, entries: 2_000)
            // An old reading imported and queued (2021, far behind the latest entries, in a month that
            // has a segment).
            let longAgo = Date(timeIntervalSince1970: 1_620_000_000)
            let entry = try await store.update { state in
                state.record(.height, 150.5, measuredAt: longAgo, source: .import).entry
            }
            let queued = try #require(try await store.load().outbox.progress.first { $0.id == entry.id })
            let post = SyncOperation.logProgress(id: queued.id, queued.entry, checkServerFirst: false)
            let cold = makeStore(in: folder)

            try await cold.updateRecent(including: [EntryLocation(entry)]) {
                state in
                state.begin(post, owner: UUID(), now: Date())
                state.finish(post, outcome: .logged(serverId: "w-old"), now: Date(), random: 0)
            }

            // account.json and the one month of the entry.
            #expect(cold.counters.filesDecoded == 2)
            #expect(cold.counters.filesWritten == 1)
            let reread = try await makeStore(in: folder).load()
            #expect(reread.history.count == 2_001)
            #expect(reread.history.first { $0.id == entry.id }?.serverId == "w-old")
            #expect(!reread.outbox.progress.contains { $0.id == entry.id })
            let summary = try #require(try await makeStore(in: folder).overview().summaries[Metric.height.type])
            #expect(summary == HistorySummary(of: reread.history(of: .height)))
        }
    }

    @Test func anAnswerToTheNewestPostChangesTheLatestEntriesToo() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let store = makeStore(in: folder)
            try await seeded(store, entries: 500)
            let logged = Date(timeIntervalSince1970: 1_796_515_200)  // after every seeded entry
            let entry = try await store.update { state in
                state.record(.height, 182, measuredAt: logged, source: .manual).entry
            }
            let cold = makeStore(in: folder)

            _ = try await cold.updateRecent(including: [EntryLocation(entry)]) {
                state in
                state.history.markSynced(entry.id, serverId: "h-new")
            }

            #expect(cold.counters.filesDecoded == 1)  // the entry is among the latest: no segment read
            let overview = try await makeStore(in: folder).overview()
            #expect(overview.state.history.first { $0.id == entry.id }?.serverId == "h-new")
            #expect(try await makeStore(in: folder).load().history.first { $0.id == entry.id }?.serverId == "h-new")
        }
    }

    /// A first sync of thousands into an empty history: the change on the latest entries (every entry,
    /// there being none) is made once, not again on the whole history, and the history is written as
    /// month segments with nothing in the journal, as a full journal is folded.
    @Test func aFirstFillOfThousandsIsMadeOnceAndWrittenAsSegments() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            try await seeded(makeStore(in: folder), entries: 0)
            let cold = makeStore(in: folder)
            let entries = history(HistoryIndex.journalLimit + 200)
            let runs = Mutex(0)

            let added = try await cold.updateRecent { state in
                runs.withLock { $0 += 1 }
                state.history.entries += entries
                return state.history.entries.count
            }

            #expect(added == entries.count)
            #expect(runs.withLock { $0 } == 1)
            let data = try Data(contentsOf: cold.folder.appendingPathComponent("account.json"))
            let stored = try #require(try makeStore(in: folder).storedAccount(data))
            #expect(stored.index.journal.isEmpty)
            #expect(Set(stored.index.segments.map(\.key)) == Set(entries.map { SegmentKey($0) }))
            #expect(historyFiles(cold).count == stored.index.segments.count + stored.files.names.count)
            let reread = try await makeStore(in: folder).load()
            let byServerId = { (entries: [ProgressEntry]) in entries.sorted { $0.serverId ?? "" < $1.serverId ?? "" } }
            #expect(byServerId(reread.history.entries) == byServerId(entries))
            #expect(stored.summaries[ProgressEntry.heightType] == HistorySummary(of: reread.history))
        }
    }

    /// Entries in any order, on both sides of a month's first instant and of its last second, go to
    /// the month each was logged in.
    @Test func aHistoryInAnyOrderIsGroupedByTheMonthOfEachEntry() {
        let march = Date(timeIntervalSince1970: 1_740_787_200)  // 2025-03-01T00:00:00Z
        let instants = [march - 1, march, march + 86_400 * 31 - 1, march + 86_400 * 31, march - 86_400 * 28]
        var entries: [ProgressEntry] = []
        for (index, instant) in instants.enumerated() {
            for metric in [Metric.height, .weight] {
                entries.append(
                    ProgressEntry(
                        serverId: "\(metric.id)-\(index)", type: metric.type, quantity: 1, loggedAt: instant,
                        source: .server))
            }
        }
        var generator = SystemRandomNumberGenerator()
        for order in [entries, entries.reversed(), entries.shuffled(using: &generator)] {
            let grouped = JSONFileProfileStore.segments(of: order)
            #expect(grouped == Dictionary(grouping: order) { SegmentKey($0) })
        }
        let months = Set(JSONFileProfileStore.segments(of: entries).keys.map(\.month))
        #expect(months == ["2025-02", "2025-03", "2025-04"])
    }

    @Test func theOverviewReadsNoSegment() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            try await seeded(makeStore(in: folder), entries: 5_000)
            let fresh = makeStore(in: folder)

            let overview = try await fresh.overview()

            #expect(fresh.counters.filesDecoded == 1)  // account.json alone
            #expect(!overview.isComplete)
            let summary = try #require(overview.summaries[ProgressEntry.heightType])
            #expect(summary.count == 5_000)
            #expect(summary.latest.count == HistorySummary.latestLimit)
            #expect(summary.latest.first?.serverId == "p-0")
            #expect(summary.series.count <= HistorySummary.seriesLimit && summary.series.count > 100)
            #expect(overview.state.profile?.name == "Ada")
            // It leaves the history's index undecoded (it grows with the months of history), and gives
            // what the whole file gives.
            let data = try Data(contentsOf: fresh.folder.appendingPathComponent("account.json"))
            let whole = try #require(try makeStore(in: folder).storedAccount(data))
            #expect(whole.index.segments.count > 100)
            #expect(overview == AccountHead(state: whole.state, summaries: whole.summaries).overview)
            // A save after it (a command's) decodes nothing again: the overview's decoding is kept, and
            // completed with the index, which the save keeps.
            try await fresh.updateRecent { $0.server.lastSyncAt = Date(timeIntervalSince1970: 1_790_000_000) }
            #expect(fresh.counters.filesDecoded == 1 && fresh.counters.filesWritten == 1)
            #expect(try await makeStore(in: folder).load().history.count == 5_000)
            // Nor does the overview of what that save wrote.
            #expect(try await fresh.overview().state.server.lastSyncAt == Date(timeIntervalSince1970: 1_790_000_000))
            #expect(fresh.counters.filesDecoded == 1)
            // Once the store holds the whole history, the overview is complete.
            _ = try await fresh.load()
            #expect(try await fresh.overview().isComplete)
        }
    }

    @Test func aDamagedSegmentIsMovedAsideNamedAndTheHistoryIsReadFromTheServerAgain() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            let now = Date(timeIntervalSince1970: 1_735_787_045.6785)  // 2025-01-02T03:04:05.678Z
            try await seeded(makeStore(in: folder, now: now), entries: 100)
            let store = makeStore(in: folder, now: now)
            let victim = try #require(historyFiles(store).first)
            let path = store.historyFolder.appendingPathComponent(victim).path
            try Data("{\"schemaVersion\": 1, \"segment\": ".utf8).write(to: URL(fileURLWithPath: path))

            await #expect {
                _ = try await store.load()
            } throws: { error in
                guard case CacheError.corrupt(let named, let movedTo, _) = error else { return false }
                return named == path && movedTo == path + ".corrupt-20250102T030405.678Z"
            }
            #expect(FileManager.default.fileExists(atPath: path + ".corrupt-20250102T030405.678Z"))

            // The rest is read; the next sync reads the whole history from the server.
            let state = try await store.load()
            #expect(state.server.historyCheckedAt == nil)
            #expect(state.history.count < 100 && state.history.count > 50)
            try await store.update { $0.server.lastSyncAt = now }
            #expect(try await makeStore(in: folder).load().history.count == state.history.count)
            #expect(FileManager.default.fileExists(atPath: path + ".corrupt-20250102T030405.678Z"))
        }
    }

    @Test func aSegmentOfANewerSchemaIsRefusedAndLeftInPlace() async throws {
        try await withTemporaryDirectory { (folder: URL) async throws in
            // Enough entries that they are written as segments, not only journaled.
            try await seeded(makeStore(in: folder), entries: 200)
            let store = makeStore(in: folder)
            let victim = try #require(historyFiles(store).first)
            let url = store.historyFolder.appendingPathComponent(victim)
            let newer = Data(#"{"schemaVersion": 9, "future": true}"#.utf8)
            try newer.write(to: url)

            await #expect {
                _ = try await store.load()
            } throws: { error in
                guard case CacheError.newerVersion(_, 9, 1) = error else { return false }
                return true
            }
            #expect(try Data(contentsOf: url) == newer)
        }
    }

    @Test func journalChangesAreTheStretchThatDiffers() {
        let entries = history(6).reversed().map { $0 }
        let appended = entries + [ProgressEntry(quantity: 1, loggedAt: Date(), source: .manual)]
        #expect(JSONFileProfileStoreProbe.changes(entries, appended).count == 1)
        var corrected = entries
        corrected[2].quantity = 5
        #expect(JSONFileProfileStoreProbe.changes(entries, corrected).count == 1)
        var removed = entries
        removed.remove(at: 3)
        #expect(JSONFileProfileStoreProbe.changes(entries, removed).count == 1)
        #expect(JSONFileProfileStoreProbe.changes(entries, entries).isEmpty)
    }
}

/// The journal's limit, as the store uses it.
enum HistoryLayoutTestsLimit {
    static let journal = HistoryIndex.journalLimit
}

/// The store's diff of two histories, seen from the tests.
enum JSONFileProfileStoreProbe {
    static func changes(_ old: [ProgressEntry], _ new: [ProgressEntry]) -> [HistoryIndex.Change] {
        JSONFileProfileStore.changes(from: old, to: new)
    }
}
