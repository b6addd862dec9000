import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Mistyped heights can be removed or corrected, online and offline, and the current height follows.
struct CorrectionsTests {
    /// An account with two synced heights: 175 a month ago and 180 now (the current height), besides the
    /// entry the first sync made of the server profile's 170 cm.
    func twoSyncedHeights() async throws -> (TestHarness, Account, older: ProgressEntry, latest: ProgressEntry) {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let lastMonth = CalendarDate(containing: harness.clock.date(), in: .utc).adding(days: -30)
        try await account.apply(.measurement(.height, 175, day: lastMonth))
        try await account.apply(.measurement(.height, 180))
        #expect(try await account.syncNow().isSynced)
        await harness.backend.clearRequests()
        let history = try await account.cached().history(of: .height)
        let latest = try #require(history.first { $0.quantity == 180 })
        let older = try #require(history.first { $0.quantity == 175 })
        return (harness, account, older, latest)
    }

    @Test func deletingTheLatestEntryDeletesItOnTheServerAndTheCurrentHeightFollows() async throws {
        let (harness, account, older, latest) = try await twoSyncedHeights()
        let serverId = try #require(latest.serverId)

        try await account.deleteEntry(of: .height, id: serverId)
        let pending = try await account.cached()
        #expect(pending.pending.count == 1)
        #expect(pending.profile?.heightCm == 175)
        #expect(try await account.syncNow().isSynced)

        #expect(await harness.backend.requests(.deleteProgress) == [.deleteProgress(serverId)])
        #expect(await harness.backend.requests(.updatePhysical) == [.updatePhysical(PhysicalPatch(heightCm: 175))])
        #expect(await !harness.backend.entries.contains { $0.id == serverId })
        #expect(await harness.backend.entries.contains { $0.id == older.serverId })
        #expect(try await account.cached().history(of: .height).map(\.quantity) == [175, 170])
    }

    @Test func anEntryAlreadyGoneOnTheServerCountsAsDeleted() async throws {
        let (harness, account, _, latest) = try await twoSyncedHeights()
        let serverId = try #require(latest.serverId)
        await harness.backend.setEntries(await harness.backend.entries.filter { $0.id != serverId })

        try await account.deleteEntry(of: .height, id: serverId)

        #expect(try await account.syncNow().isSynced)  // the 404 ends it as well as a 204
        #expect(await harness.backend.requests(.deleteProgress) == [.deleteProgress(serverId)])
    }

    @Test func deletingAnEntryNeverSentDropsItsPostAndSendsNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        try await account.apply(.measurement(.height, 199))
        let entry = try #require(try await account.cached().history(of: .height).first { $0.quantity == 199 })
        #expect(entry.serverId == nil)

        try await account.deleteEntry(of: .height, id: entry.id.uuidString.uppercased())  // local ids in any case

        await harness.backend.setOffline(false)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.requests(.logProgress) == [])
        #expect(await harness.backend.requests(.deleteProgress) == [])
        #expect(try await account.cached().history(of: .height).allSatisfy { $0.quantity != 199 })
    }

    @Test func correctingTheLatestEntryKeepsItsInstantAndMovesTheCurrentHeight() async throws {
        let (harness, account, _, latest) = try await twoSyncedHeights()

        let (_, after) = try await account.correctEntry(of: .height, id: try #require(latest.serverId), to: 181.5)

        #expect(after.loggedAt == latest.loggedAt)
        #expect(try await account.cached().pending.count == 1)  // a delete and a post: one change
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.requests(.deleteProgress) == [.deleteProgress(try #require(latest.serverId))])
        let posts = await harness.backend.requests(.logProgress)
        #expect(posts == [.logProgress(NewProgressEntry(type: "height", quantity: 181.5, loggedAt: latest.loggedAt))])
        #expect(await harness.backend.profile?.heightCm == 181.5)
        #expect(await harness.backend.entries.map(\.quantity).sorted() == [170, 175, 181.5])
    }

    @Test func correctingAnOlderEntryLeavesTheCurrentHeight() async throws {
        let (harness, account, older, _) = try await twoSyncedHeights()

        try await account.correctEntry(of: .height, id: try #require(older.serverId), to: 176)

        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.requests(.updatePhysical) == [])
        #expect(await harness.backend.profile?.heightCm == 180)
        #expect(await harness.backend.entries.map(\.quantity).sorted() == [170, 176, 180])
    }

    @Test func correctionsMadeOfflineWaitAndArriveLater() async throws {
        let (harness, account, older, _) = try await twoSyncedHeights()
        await harness.backend.setOffline(true)

        try await account.correctEntry(of: .height, id: try #require(older.serverId), to: 174)
        #expect(try await account.engine.drain().pending == 1)

        await harness.backend.setOffline(false)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.entries.map(\.quantity).sorted() == [170, 174, 180])
    }

    @Test func removingEveryEntryLeavesTheHistoryEmpty() async throws {
        // The initial-height rule (a history starts from the profile's height) must not undo removals,
        // nor a history read that began before them.
        let (harness, account, _, _) = try await twoSyncedHeights()
        for entry in try await account.cached().history(of: .height) {
            try await account.deleteEntry(of: .height, id: try #require(entry.serverId))
        }
        let stale = await harness.backend.entries
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.entries.isEmpty)
        #expect(try await account.cached().history(of: .height).isEmpty)
        // A read from before the removals lists them all; they stay removed.
        try await account.store.update { state in
            state.mergeServerHistory(stale, of: .height, complete: false, now: harness.clock.date())
        }
        #expect(try await account.cached().history(of: .height).isEmpty)
    }

    @Test func anUnknownIdSaysHowToFindOne() async throws {
        let (_, account, _, _) = try await twoSyncedHeights()
        await #expect(throws: CorrectionError.noSuchEntry("nope", metric: "height")) {
            try await account.deleteEntry(of: .height, id: "nope")
        }
        #expect(CorrectionError.noSuchEntry("nope", metric: "height").description.contains("height history --json"))
    }
}
