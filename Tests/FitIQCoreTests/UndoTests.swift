import FitIQLocalization
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQCore

/// `undo` walks back through the recent saved changes, before and after they were sent.
struct UndoTests {
    /// A signed-in account whose height of 181 cm has reached the server, and its entry.
    private func syncedHeight() async throws -> (TestHarness, Account, ProgressEntry) {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.height, 181))
        #expect(try await account.syncNow().isSynced)
        let entry = try #require(try await account.cached().history(of: .height).first { $0.quantity == 181 })
        return (harness, account, entry)
    }

    @Test func anUnsentEditLeavesTheOutboxAndThePreviousValuesComeBack() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        try await account.updateMetadata(name: "Typo Nmae")

        let undone = try await account.undo()

        #expect(undone?.description == "the change of name")
        let state = try await account.cached()
        #expect(state.profile?.name == TestHarness.serverProfile.metadata.name)
        #expect(state.outbox.isEmpty)
        #expect(state.pending.count == 0)
    }

    /// What undo says it undid is kept as data and worded when said: a change saved while one language
    /// was in force is named in the language in force when it is undone.
    @Test func theUndoneChangeIsSaidInTheLanguageInForceWhenItIsUndone() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        try await speaking(.pseudo) {
            try await account.updateMetadata(name: "Typo Nmae")
            try await account.apply(.measurement(.weight, 72.4))
        }

        let weight = try await account.undo()
        let name = try await account.undo()

        #expect(weight?.description.hasPrefix("the weight 72.4 kg logged on ") == true, "\(String(describing: weight))")
        let said = try #require(speaking(.pseudo) { name?.description })
        #expect(said.hasPrefix("[the change of ") && said.hasSuffix("]"), "\(said)")
    }

    @Test func aSentEditIsReversedByANewChange() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "Sent bio")
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.profile?.metadata.bio == "Sent bio")

        try await account.undo()
        #expect(try await account.syncNow().isSynced)

        #expect(await harness.backend.profile?.metadata.bio == TestHarness.serverProfile.metadata.bio)
    }

    @Test func undoingASentHeightDeletesItsEntryAndRestoresTheHeight() async throws {
        let (harness, account, logged) = try await syncedHeight()

        let undone = try await account.undo()
        #expect(try await account.syncNow().isSynced)

        #expect(undone?.description.hasPrefix("the height 181.0 cm logged on") == true)
        #expect(await harness.backend.requests(.deleteProgress) == [.deleteProgress(try #require(logged.serverId))])
        #expect(await harness.backend.profile?.heightCm == 170)
        #expect(try await account.cached().profile?.heightCm == 170)
    }

    @Test func aHeightWhosePostGotNoAnswerIsNotUndoneUntilItsFateIsKnown() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.height, 181))
        // The post reaches the server, but its answer is lost.
        await harness.backend.inject(.dropAfterApplying, into: .logProgress)
        try await account.engine.drain()

        await #expect(throws: CorrectionError.beingSent) { try await account.undo() }
        #expect(try await account.cached().undoLog.steps.count == 1, "still undoable")

        // Once a sync learns the server holds it, undo deletes it there.
        #expect(try await account.syncNow().isSynced)
        let undone = try await account.undo()
        #expect(undone?.description.hasPrefix("the height 181.0 cm") == true)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.entries.contains { $0.quantity == 181 } == false)
    }

    /// A correction is a deletion and a post. When the deletion reached the server but its answer was
    /// lost, undoing it must not drop the deletion and keep the entry as the server's: the server no
    /// longer holds it (found by the hour-long soak: a height in the cache, not on the server).
    @Test func aCorrectionWhoseDeletionGotNoAnswerIsNotUndoneUntilItsFateIsKnown() async throws {
        let (harness, account, entry) = try await syncedHeight()
        try await account.correctEntry(of: .height, id: try #require(entry.serverId), to: 183)
        // The deletion reaches the server, but its answer is lost.
        await harness.backend.inject(.dropAfterApplying, into: .deleteProgress)
        try await account.engine.drain()
        #expect(await harness.backend.entries.contains { $0.quantity == 181 } == false, "deleted there")

        await #expect(throws: CorrectionError.beingSent) { try await account.undo() }
        #expect(try await account.cached().undoLog.steps.count == 2, "the correction still undoable")

        // Once the deletion is settled, undo posts the entry again and deletes the correction.
        #expect(try await account.syncNow().isSynced)
        try await account.undo()
        #expect(try await account.syncNow().isSynced)
        let onServer = await harness.backend.entries.filter { $0.type == Metric.height.type }
        #expect(onServer.contains { $0.quantity == 181 && $0.loggedAt == entry.loggedAt })
        #expect(!onServer.contains { $0.quantity == 183 })
        let cached = try await account.cached().history(of: .height)
        #expect(Set(cached.compactMap(\.serverId)) == Set(onServer.map(\.id)))
    }

    @Test func undoingADeletionBringsTheEntryBackBeforeAndAfterSending() async throws {
        let (harness, account, entry) = try await syncedHeight()

        // Not sent yet: the deletion leaves the outbox and the entry is back as it was.
        try await account.deleteEntry(of: .height, id: try #require(entry.serverId))
        try await account.undo()
        #expect(try await account.cached().history(of: .height).first?.serverId == entry.serverId)
        #expect(try await account.cached().pending.count == 0)

        // Sent: the entry is posted again.
        try await account.deleteEntry(of: .height, id: try #require(entry.serverId))
        #expect(try await account.syncNow().isSynced)
        try await account.undo()
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.entries.contains { $0.quantity == 181 && $0.loggedAt == entry.loggedAt })
        #expect(await harness.backend.profile?.heightCm == 181)
    }

    @Test func repeatedUndoWalksBackThroughTheRecentChanges() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        for index in 1...25 { try await account.updateMetadata(bio: "bio \(index)") }
        for _ in 1...20 { try await account.undo() }
        #expect(try await account.cached().profile?.bio == "bio 5")
        for _ in 1...5 { try await account.undo() }
        #expect(try await account.cached().profile?.bio == TestHarness.serverProfile.metadata.bio)
        #expect(try await account.undo() == nil)
    }
}
