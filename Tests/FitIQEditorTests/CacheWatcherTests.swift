import FitIQTUI
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore
@testable import FitIQEditor

/// The cache watcher alone: a reported change, and the revision check of the sync rounds without a
/// watch.
@Suite(.timeLimit(.minutes(3)))
struct CacheWatcherTests {
    @Test func aChangeTheWatchReportsShowsTheAccountWithoutASync() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let watch = FakeCacheWatch()
        let watcher = CacheWatcher(slot: AccountSlot(account), inbox: inbox, watch: watch)
        let task = Task { await watcher.run() }
        try await watch.waitUntilWatched()

        try await anotherProcess(of: account, harness: harness).updateMetadata(bio: "Written in another terminal")
        watch.report()

        try await log.next("the other process's bio") { $0.shownBio == "Written in another terminal" }
        let syncs = log.events.filter { $0.isSyncStart }
        #expect(syncs.isEmpty)
        task.cancel()
        await task.value
    }

    @Test func aReportWithoutAWriteShowsNothingNew() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let watcher = CacheWatcher(slot: AccountSlot(account), inbox: inbox, watch: nil)

        await watcher.check(account)
        await watcher.check(account)
        #expect(log.events.count == 1)
        try await anotherProcess(of: account, harness: harness).updateMetadata(bio: "Changed")
        await watcher.check(account)
        #expect(log.events.count == 2)
        #expect(log.events.last?.shownBio == "Changed")
    }

    @Test func theNextAccountIsWatchedOnceSignedIn() async throws {
        let harness = TestHarness()
        let slot = AccountSlot(nil)
        let inbox = EventInbox()
        let watch = FakeCacheWatch()
        let watcher = CacheWatcher(slot: slot, inbox: inbox, watch: watch)
        let task = Task { await watcher.run() }

        slot.set(try await harness.signedIn())
        try await watch.waitUntilWatched()
        task.cancel()
        await task.value
    }

    @Test func withoutAWatchTheSyncRoundsLookAtTheRevision() async throws {
        // Wired as the editor wires them: each sync round ends with the watcher's revision check.
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let slot = AccountSlot(account)
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let watcher = CacheWatcher(slot: slot, inbox: inbox, watch: nil)
        await watcher.run()  // without a watch, nothing to follow
        let clock = harness.clock
        let sync = BackgroundSync(
            slot: slot, inbox: inbox, clock: clock, afterRound: { await watcher.check($0) })
        let task = Task { await sync.run() }
        try await log.next("the first round's look") { $0.isAccountChange }
        try await clock.waitForSleepers(1)

        try await anotherProcess(of: account, harness: harness).updateMetadata(bio: "Written in another terminal")
        clock.advance(by: BackgroundSync.interval)
        try await log.next("the other process's bio at the next round") {
            $0.shownBio == "Written in another terminal"
        }
        task.cancel()
        await task.value
    }

    /// An account object of its own on the same store, as another process would have.
    private func anotherProcess(of account: Account, harness: TestHarness) -> Account {
        Account(
            key: account.key, email: account.email, store: account.store, sessions: account.sessions,
            backend: Backend(auth: harness.backend, profiles: harness.backend, progress: harness.backend),
            environment: harness.environment)
    }
}

extension Event {
    /// Whether this event shows the account.
    var isAccountChange: Bool {
        if case .accountChanged = self { true } else { false }
    }
}
