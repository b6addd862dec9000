import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// The outbox as a pure state machine: no I/O, no clock but the instants passed in.
struct OutboxTests {
    @Test func hundredNameEditsBecomeOnePut() throws {
        var state = syncedState()
        for index in 1...100 {
            var metadata = try #require(state.profile?.metadata)
            metadata.name = "Jane \(index)"
            state.editMetadata(metadata, now: start)
        }
        #expect(state.pending.count == 1)
        let delivered = state.deliverNext()
        let operation = try #require(delivered)
        guard case .updateMetadata(let sent, _) = operation else { Issue.record("expected a PUT"); return }
        #expect(sent.name == "Jane 100")
        #expect(sent.preferredUnitSystem == .metric)
        #expect(state.outbox.isEmpty)
    }

    @Test func anEditBackToTheSameValuesQueuesNothing() throws {
        var state = syncedState()
        let same = try #require(state.profile?.metadata)
        let result1 = state.editMetadata(same, now: start)
        #expect(!result1)
        #expect(state.outbox.isEmpty)
    }

    @Test func aHeightChangeIsOnePatchAndOnePostAndOneChange() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        #expect(state.pending.count == 1)
        var operations: [SyncOperation] = []
        while let operation = state.deliverNext() { operations.append(operation) }
        #expect(operations.count == 2)
        #expect(operations.first == .updatePhysical(PhysicalPatch(heightCm: 181), revision: 1))
        guard case .logProgress(_, let entry, let check) = operations.last else { Issue.record("no POST"); return }
        #expect(entry == NewProgressEntry(type: "height", quantity: 181, loggedAt: start))
        #expect(!check)
        #expect(state.pending.count == 0)
        #expect(state.history(of: .height).first?.isSynced == true)
    }

    /// A list cut at `limit` keeps the queue's order and its first changes; the counts, taken in place,
    /// are those of the whole list.
    @Test func aLimitedListIsTheWholeListsStartAndTheCountsAreTheWholes() throws {
        var state = syncedState()
        var metadata = try #require(state.profile?.metadata)
        metadata.bio = "Edited offline"
        state.editMetadata(metadata, now: start)
        state.record(.height, 181, measuredAt: start, source: .manual)
        for index in 0..<5 {
            state.record(
                .steps, Double(1_000 + index), measuredAt: start.addingTimeInterval(Double(index)), source: .manual)
        }
        let whole = state.pending.changes()
        #expect(whole.count == state.pending.listLength && whole.count == 8)
        for limit in [0, 1, 2, 3, 7, 8, 9] {
            #expect(state.pending.changes(limit: limit) == Array(whole.prefix(limit)), "limit \(limit)")
        }
        #expect(state.pending.count == whole.filter { $0.rejection == nil }.reduce(0) { $0 + $1.changeCount })
        #expect(state.pending.count == 7)
    }

    @Test func twoHeightChangesOfflineAreOnePatchAndTwoPosts() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        state.record(.height, 182, measuredAt: start.addingTimeInterval(60), source: .manual)
        #expect(state.pending.count == 2)
        var operations: [SyncOperation] = []
        while let operation = state.deliverNext() { operations.append(operation) }
        #expect(
            operations.filter { if case .updatePhysical = $0 { true } else { false } }
                == [.updatePhysical(PhysicalPatch(heightCm: 182), revision: 2)])
        #expect(operations.filter { if case .logProgress = $0 { true } else { false } }.count == 2)
    }

    @Test func aUserEditNeverSendsBiologicalSex() throws {
        // Given a biological sex from the health source that the server already has
        var state = syncedState()
        state.applyHealthBiologicalSex(.value(.female), recordedAt: start)
        while state.deliverNext() != nil {}
        // When the user changes height and metadata
        state.record(.height, 175, measuredAt: start, source: .manual)
        var metadata = try #require(state.profile?.metadata)
        metadata.bio = "new"
        state.editMetadata(metadata, now: start)
        // Then no request carries biological sex, and no PATCH is ever empty (no nulls to send)
        while let operation = state.deliverNext() {
            if case .updatePhysical(let patch, _) = operation {
                #expect(patch.biologicalSex == nil)
                #expect(!patch.isEmpty)
            }
        }
    }

    @Test func anAccountSourcedSexIsNeverSent() throws {
        var state = AccountState.empty
        var remote = TestHarness.serverProfile
        remote.biologicalSex = .male
        state.mergeServerProfile(remote, identity: AccountIdentity(userId: "u1", email: "e@x.y"), now: start)
        #expect(state.profile?.biologicalSex == SourcedBiologicalSex(value: .male, source: .account))
        state.record(.height, 171, measuredAt: start, source: .manual)
        state.queuePhysicalSexForTest()
        #expect(state.pending.physicalPatch == PhysicalPatch(heightCm: 171))
    }

    @Test func healthSexIsQueuedOnlyWhenItChanges() {
        var state = syncedState()
        let result2 = state.applyHealthBiologicalSex(.value(.female), recordedAt: start).isQueued
        #expect(result2)
        #expect(state.pending.physicalPatch == PhysicalPatch(biologicalSex: .female))
        while state.deliverNext() != nil {}
        let result3 = state.applyHealthBiologicalSex(.value(.female), recordedAt: start).isQueued
        #expect(!result3)
        #expect(state.outbox.isEmpty)
        let result4 = state.applyHealthBiologicalSex(.value(.other), recordedAt: start).isQueued
        #expect(result4)
    }

    @Test func retriesBackOffExponentiallyWithJitter() throws {
        var state = syncedState()
        var metadata = try #require(state.profile?.metadata)
        metadata.name = "Backoff"
        state.editMetadata(metadata, now: start)
        var now = start
        var waits: [TimeInterval] = []
        for _ in 1...8 {
            let operation = try #require(state.nextOperation(at: now))
            state.begin(operation, owner: me, now: now)
            state.finish(operation, outcome: .retry(.said("HTTP 503")), now: now, random: 1.0)
            guard case .wait(let until) = state.nextAction(for: me, now: now) else { Issue.record("no wait"); return }
            waits.append(until.timeIntervalSince(now))
            now = until
        }
        #expect(waits == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(Outbox.backoff(afterAttempts: 3, random: 0) == 2)
        #expect(state.outbox.metadata?.delivery.lastProblem == .said("HTTP 503"))
    }

    @Test func aBackingOffQueueDelaysOnlyItself() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        var metadata = try #require(state.profile?.metadata)
        metadata.name = "Other queue"
        state.editMetadata(metadata, now: start)
        // The PUT fails and backs off; the PATCH and the POST go ahead.
        let put = try #require(state.nextOperation())
        state.begin(put, owner: me, now: start)
        state.finish(put, outcome: .retry(.said("timeout")), now: start, random: 0)
        #expect(state.deliverNext().map { if case .updatePhysical = $0 { true } else { false } } == true)
        #expect(state.deliverNext().map { if case .logProgress = $0 { true } else { false } } == true)
        #expect(state.nextAction(for: me, now: start) == .wait(until: start.addingTimeInterval(0.5)))
    }

    @Test func aRejectedEditStaysVisibleAndBlocksNothing() throws {
        var state = try syncedStateWithEditAndHeight { $0.languageCode = "tlh" }
        state.deliverNext(.rejected("Unsupported language"))
        #expect(state.profile?.languageCode == "tlh")
        #expect(state.pending.rejectedCount == 1)
        #expect(state.pending.changes().first?.rejection == "Unsupported language")
        // The height still goes through.
        while state.deliverNext() != nil {}
        #expect(state.pending.count == 0)
        #expect(state.pending.rejectedCount == 1)
        #expect(state.nextAction(for: me, now: start) == .idle)
        // Retry sends it again; discard reverts to the server's value.
        state.outbox.retry(.metadata)
        #expect(state.nextOperation() != nil)
        state.discard(.metadata)
        #expect(state.profile?.languageCode == "en")
        #expect(state.outbox.isEmpty)
    }

    @Test func anAnswerToAnOlderRequestKeepsANewerEdit() throws {
        var state = syncedState()
        var metadata = try #require(state.profile?.metadata)
        metadata.name = "First"
        state.editMetadata(metadata, now: start)
        let first = try #require(state.nextOperation())
        state.begin(first, owner: me, now: start)
        metadata.name = "Second"
        state.editMetadata(metadata, now: start)
        state.finish(first, outcome: .delivered, now: start, random: 0)
        guard case .updateMetadata(let sent, _) = try #require(state.nextOperation()) else { return }
        #expect(sent.name == "Second")
    }

    @Test func anotherSendersClaimHoldsTheEntryUntilItExpires() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        while case .updatePhysical? = state.nextOperation() { state.deliverNext() }
        let post = try #require(state.nextOperation())
        state.begin(post, owner: someoneElse, now: start)
        // The other process died mid-request: after the claim expires, the POST is re-sent with a check.
        #expect(
            state.nextAction(for: me, now: start.addingTimeInterval(5))
                == .wait(until: start.addingTimeInterval(Outbox.claimDuration)))
        let later = start.addingTimeInterval(Outbox.claimDuration + 1)
        guard case .logProgress(_, _, let checkFirst) = try #require(state.nextOperation(at: later)) else { return }
        #expect(checkFirst)
    }

    @Test func aClaimWhoseProcessIsGoneIsVoidAtOnce() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        while case .updatePhysical? = state.nextOperation() { state.deliverNext() }
        let post = try #require(state.nextOperation())
        let other = ProcessIdentity(pid: 4242, startTime: 7)
        state.begin(post, owner: someoneElse, now: start, holder: other)
        let soon = start.addingTimeInterval(1)
        // While the holder runs, its claim holds; once it is gone, the entry is sent (with a check) at once.
        #expect(state.nextAction(for: me, now: soon, isVoid: { _ in false }) != .send(post))
        #expect(state.outbox.dueProgressPosts(now: soon, limit: 8, isVoid: { _ in false }).isEmpty)
        let gone: (Claim) -> Bool = { $0.holder == other }
        guard case .send(.logProgress(_, _, let checkFirst)) = state.nextAction(for: me, now: soon, isVoid: gone)
        else {
            Issue.record("the void claim still held the entry")
            return
        }
        #expect(checkFirst)
        #expect(state.outbox.dueProgressPosts(now: soon, limit: 8, isVoid: gone).count == 1)
    }

    @Test func pullKeepsFieldsWithPendingEditsAndTakesTheRest() throws {
        var state = try syncedStateWithEditAndHeight { $0.name = "Local name" }
        var remote = TestHarness.serverProfile
        remote.metadata.name = "Server name"
        remote.metadata.bio = "Server bio"
        remote.heightCm = 160
        state.mergeServerProfile(remote, identity: AccountIdentity(userId: "u1", email: "e@x.y"), now: start)
        #expect(state.profile?.name == "Local name")
        #expect(state.profile?.bio == "Server bio")
        #expect(state.profile?.heightCm == 181)
        // The PUT then carries the server's bio with the local name.
        guard case .updateMetadata(let sent, _) = try #require(state.nextOperation()) else { return }
        #expect(sent.name == "Local name")
        #expect(sent.bio == "Server bio")
    }

    @Test func aServerNullNeverErasesALocalHeight() {
        var state = syncedState()
        var remote = TestHarness.serverProfile
        remote.heightCm = nil
        state.mergeServerProfile(remote, identity: AccountIdentity(userId: "u1", email: "e@x.y"), now: start)
        #expect(state.profile?.heightCm == 170)
    }

    @Test func aServerSexThatDiffersFromTheHealthSourceIsPushedAgain() {
        var state = syncedState()
        state.applyHealthBiologicalSex(.value(.female), recordedAt: start)
        while state.deliverNext() != nil {}
        var remote = TestHarness.serverProfile
        remote.biologicalSex = .male
        let result5 = state.mergeServerProfile(
            remote, identity: AccountIdentity(userId: "u1", email: "e@x.y"), now: start)
        #expect(result5)
        #expect(state.profile?.biologicalSex?.value == .female)
        #expect(state.profile?.biologicalSex?.source == .health)
        #expect(state.pending.physicalPatch == PhysicalPatch(biologicalSex: .female))
    }

    @Test func aLostAnswerIsMatchedByTheHistoryInsteadOfPostedTwice() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        state.deliverNext()  // PATCH
        let post = try #require(state.nextOperation())
        state.begin(post, owner: me, now: start)
        state.finish(post, outcome: .retry(.said("connection closed")), now: start, random: 0)
        // The server did store it:
        let stored = RemoteProgressEntry(id: "srv-1", type: "height", quantity: 181, loggedAt: start)
        state.mergeServerHistory([stored], of: .height, complete: true, now: start)
        #expect(state.outbox.isEmpty)
        #expect(state.history(of: .height).count == 1)
        #expect(state.history(of: .height).first?.serverId == "srv-1")
    }

    @Test func aCompleteReadDropsDeletedEntriesButNotOnesDeliveredDuringTheRead() throws {
        var state = syncedState()
        func logged(_ centimetres: Double, as serverId: String) throws {
            state.record(.height, centimetres, measuredAt: start, source: .manual)
            while let operation = state.nextOperation() {
                state.begin(operation, owner: me, now: start)
                let outcome: SyncOutcome =
                    if case .logProgress = operation { .logged(serverId: serverId) } else { .delivered }
                state.finish(operation, outcome: outcome, now: start, random: 0)
            }
        }
        try logged(170, as: "srv-old")
        try logged(171, as: "srv-kept")
        let knownBeforeRead = Set(state.history(of: .height).compactMap(\.serverId))
        // While the read is under way, another process delivers one more entry.
        try logged(172, as: "srv-new")
        let kept = RemoteProgressEntry(id: "srv-kept", type: "height", quantity: 171, loggedAt: start)
        state.mergeServerHistory([kept], of: .height, complete: true, knownBeforeRead: knownBeforeRead, now: start)
        #expect(Set(state.history(of: .height).compactMap(\.serverId)) == ["srv-kept", "srv-new"])
        // The next read lists the new entry; "srv-old" was deleted on the server and stays gone.
        let new = RemoteProgressEntry(id: "srv-new", type: "height", quantity: 172, loggedAt: start)
        state.mergeServerHistory([new], of: .height, complete: true, now: start)
        #expect(state.history(of: .height).compactMap(\.serverId) == ["srv-new"])
    }

    @Test func theInitialHeightIsQueuedOnceWhenNoHistoryExists() {
        var state = syncedState()
        state.mergeServerHistory([], of: .height, complete: true, now: start)
        let result6 = state.queueInitialHeightIfNeeded(serverHasHeightEntries: false, now: start)
        #expect(result6)
        let result7 = state.queueInitialHeightIfNeeded(serverHasHeightEntries: false, now: start)
        #expect(!result7)
        #expect(state.outbox.progress.count == 1)
        #expect(state.outbox.progress.first?.entry.notes == ProgressEntry.initialHeightNote)
        #expect(state.outbox.progress.first?.entry.loggedAt == TestHarness.serverProfile.updatedAt)
        var withHistory = syncedState()
        let result8 = withHistory.queueInitialHeightIfNeeded(serverHasHeightEntries: true, now: start)
        #expect(!result8)
    }

    @Test func aPastMeasurementDoesNotReplaceANewerHeight() {
        var state = syncedState()
        let result9 = state.record(.height, 181, measuredAt: start, source: .manual).isCurrentHeight
        #expect(result9)
        let result10 = state.record(.height, 175, measuredAt: start.addingTimeInterval(-86_400 * 30), source: .manual)
            .isCurrentHeight
        #expect(!result10)
        #expect(state.profile?.heightCm == 181)
        #expect(state.outbox.progress.count == 2)
    }

    @Test func dueProgressPostsStopAtTheFirstEntryThatMustWait() {
        var state = syncedState()
        for index in 0..<5 {
            state.record(
                .height,
                170 + Double(index), measuredAt: start.addingTimeInterval(Double(index)), source: .manual)
        }
        #expect(state.outbox.dueProgressPosts(now: start, limit: 3).count == 3)
        #expect(state.outbox.dueProgressPosts(now: start, limit: 10).count == 5)
        // The third entry backs off: the batch keeps the queue's order and ends before it.
        state.outbox.progress[2].delivery.notBefore = start.addingTimeInterval(60)
        #expect(state.outbox.dueProgressPosts(now: start, limit: 10).count == 2)
        // A rejected entry blocks nothing.
        state.outbox.progress[0].delivery.rejection = "no"
        #expect(state.outbox.dueProgressPosts(now: start, limit: 10).count == 1)
    }
}

extension AccountState {
    /// Queues the sex field as a buggy caller might: the patch must still leave an account value out.
    mutating func queuePhysicalSexForTest() {
        setHealthBiologicalSexNoop()
    }

    private mutating func setHealthBiologicalSexNoop() {
        outbox.physical?.includesBiologicalSex = true
    }
}

/// A synced account with a metadata edit (`edit`) and a height of 181 cm queued, in that order.
private func syncedStateWithEditAndHeight(_ edit: (inout ProfileMetadata) -> Void) throws -> AccountState {
    var state = syncedState()
    var metadata = try #require(state.profile?.metadata)
    edit(&metadata)
    state.editMetadata(metadata, now: start)
    state.record(.height, 181, measuredAt: start, source: .manual)
    return state
}
