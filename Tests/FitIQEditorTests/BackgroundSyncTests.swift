import FitIQTUI
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore
@testable import FitIQEditor

/// The background sync alone, with the in-memory backend and the manual clock.
@Suite(.timeLimit(.minutes(3)))
struct BackgroundSyncTests {
    @Test func aRequestStartsASyncWithoutTheClockMoving() async throws {
        let run = try await SyncRun.start()
        try await run.log.next("the first sync's start") { $0.isSyncStart }
        try await run.log.next("the first sync's end") { $0.isSyncEnd }
        // Asleep until the next scheduled sync.
        try await run.harness.clock.waitForSleepers(1)
        let before = run.harness.clock.now

        run.sync.requestSync()
        try await run.log.next("the asked sync's start") { $0.isSyncStart }
        try await run.log.next("the asked sync's end") { $0.isSyncEnd }

        #expect(run.harness.clock.now == before)
        run.task.cancel()
        await run.task.value
    }

    @Test func aSavesPushSendsItWithoutReadingTheProfileOrTheHistoryAfter() async throws {
        let run = try await SyncRun.startedAndAsleep()
        #expect(try await run.account.updateMetadata(bio: "Saved in the editor"))
        let before = await run.harness.backend.requests.count

        run.sync.requestPush()
        try await run.log.next("the push's start") { $0.isSyncStart }
        try await run.log.next("the push's end") { $0.isSyncEnd }

        let requests = await run.harness.backend.requests.dropFirst(before).map(\.kind)
        // The conflict check, then the PUT, whose answer is the server's copy: no GET after it, no history.
        #expect(requests == [.fetchProfile, .updateMetadata])
        #expect(await run.harness.backend.profile?.metadata.bio == "Saved in the editor")

        // A full sync asked for while a push is wanted wins.
        try await run.harness.clock.waitForSleepers(1)
        let fullBefore = await run.harness.backend.requests.count
        run.sync.requestPush()
        run.sync.requestSync()
        try await run.log.next("the sync's end") { $0.isSyncEnd }
        try await run.harness.clock.waitForSleepers(1)
        let full = await run.harness.backend.requests.dropFirst(fullBefore).map(\.kind)
        #expect(full.contains(.listProgress))
        run.task.cancel()
        await run.task.value
    }

    @Test func withoutARequestItSyncsWhenTheIntervalHasPassed() async throws {
        let run = try await SyncRun.startedAndAsleep()

        // Short of the interval the sync still sleeps; at the interval it runs.
        run.harness.clock.advance(by: BackgroundSync.interval - .seconds(1))
        #expect(run.harness.clock.sleeperCount == 1)
        run.harness.clock.advance(by: .seconds(1))
        try await run.log.next("the scheduled sync's start") { $0.isSyncStart }
        try await run.log.next("the scheduled sync's end") { $0.isSyncEnd }
        run.task.cancel()
        await run.task.value
    }

    @Test func aRequestDuringASyncIsServedByAnotherRound() async throws {
        let run = try await SyncRun.start(afterRound: { _ in })
        run.sync.requestSync()
        run.sync.requestSync()
        try await run.log.next("a sync's end") { $0.isSyncEnd }
        try await run.harness.clock.waitForSleepers(1)
        let starts = run.log.events.filter { $0.isSyncStart }.count
        #expect(starts >= 1 && starts <= 2)
        run.task.cancel()
        await run.task.value
    }

    @Test func withoutAnAccountItWaitsForOne() async throws {
        let harness = TestHarness()
        let slot = AccountSlot(nil)
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let sync = BackgroundSync(slot: slot, inbox: inbox, clock: harness.clock)
        let task = Task { await sync.run() }
        try await harness.clock.waitForSleepers(1)
        #expect(log.events.isEmpty)

        slot.set(try await harness.signedIn())
        sync.requestSync()
        try await log.next("the sync once signed in") { $0.isSyncEnd }
        task.cancel()
        await task.value
    }
}

/// A background sync running for a signed-in account of a fresh harness.
struct SyncRun {
    let harness: TestHarness
    let account: Account
    let slot: AccountSlot
    let inbox: EventInbox
    let log: EventLog
    let sync: BackgroundSync
    let task: Task<Void, Never>

    /// ``start(watch:afterRound:)``, then waits for the first sync's end and for the sync to sleep
    /// until the next.
    static func startedAndAsleep() async throws -> SyncRun {
        let run = try await start()
        try await run.log.next("the first sync's end") { $0.isSyncEnd }
        try await run.harness.clock.waitForSleepers(1)
        return run
    }

    static func start(
        watch: (any CacheWatch)? = nil, afterRound: (@Sendable (Account) async -> Void)? = nil
    ) async throws -> SyncRun {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let slot = AccountSlot(account)
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let clock = harness.clock
        let sync = BackgroundSync(
            slot: slot, inbox: inbox, clock: clock, afterRound: afterRound ?? { _ in })
        let task = Task { await sync.run() }
        return SyncRun(
            harness: harness, account: account, slot: slot, inbox: inbox, log: log, sync: sync, task: task)
    }
}
