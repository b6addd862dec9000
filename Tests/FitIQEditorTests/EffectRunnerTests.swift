import FitIQCore
import FitIQTUI
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQEditor

struct EffectRunnerTests {
    /// A reload of the progress screen (after a sync) that read the goals just before a goal was set
    /// and ended after it must not put the old goals back on the screen.
    @Test func aReloadOvertakenByANewGoalDoesNotHideIt() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let store = harness.store(of: account)
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let runner = EffectRunner(
            accounts: harness.accounts, slot: AccountSlot(account), inbox: inbox, requestSync: {},
            healthSource: nil, home: nil)

        await store.holdNextGoalsRead()
        runner.perform(.loadProgress(.metric(.weight)))
        try await withHangGuard("the reload's read of the goals") { await store.waitUntilGoalsReadIsHeld() }
        runner.perform(.setGoal(.weight, target: 70, by: nil))
        try await log.next("the new goal") { event in
            if case .goalsLoaded(let goals) = event { goals.goal(for: .weight)?.target == 70 } else { false }
        }
        await store.releaseGoalsRead()
        try await log.next("the reload's chart") { if case .progressLoaded = $0 { true } else { false } }
        await runner.finish()

        let goalsShown = log.events.compactMap { event -> Goals? in
            if case .goalsLoaded(let goals) = event { goals } else { nil }
        }
        #expect(goalsShown.last?.goal(for: .weight)?.target == 70, "\(goalsShown)")
    }

    /// An editor open for hours runs thousands of effects: each is let go when it ends, so memory does
    /// not grow with them (every finished task was kept until quit, with its stack, before).
    @Test func finishedEffectsAreLetGo() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let runner = EffectRunner(
            accounts: harness.accounts, slot: AccountSlot(account), inbox: inbox, requestSync: {},
            healthSource: nil, home: nil)

        for name in ["Ada", "Grace", "Hedy"] {
            runner.perform(.save(.metadata(name: name)))
            try await log.next("\(name) saved") { event in
                if case .saved = event { true } else { false }
            }
        }
        // Not `finish()`, which waits for the set to empty: each task must leave it by itself.
        let deadline = ContinuousClock.now + .seconds(30)
        while runner.running > 0 && ContinuousClock.now < deadline { await Task.yield() }
        #expect(runner.running == 0, "effects still held after they ended")
    }

    /// A metric's list reads its entries in the background: eight glasses of a day come back as one
    /// event, though the account's view keeps only the latest few of a metric beside the body.
    @Test func aListsEntriesAreReadAndComeBackAsAnEvent() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        for hour in 6...13 {
            try await account.apply(.measurement(.water, 0.25, day: today, time: TimeOfDay(hour: hour, minute: 0)))
        }
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let runner = EffectRunner(
            accounts: harness.accounts, slot: AccountSlot(account), inbox: inbox, requestSync: {},
            healthSource: nil, home: nil)

        runner.perform(.loadEntries(.water))
        let event = try await log.next("water's entries") { if case .entriesLoaded = $0 { true } else { false } }
        await runner.finish()
        guard case .entriesLoaded(let latest) = event else { return }
        #expect(latest.metric == .water && latest.older == 0)
        #expect(latest.entries.map(\.loggedAt) == (6...13).reversed().map { today.instant(atHour: $0, in: .utc) })
    }
}

extension EffectRunnerTests {
    /// A preview read for one account imports nothing once another account is open: Enter says so,
    /// and neither account gets the entries.
    @Test func aPreviewReadForOneAccountIsNotImportedIntoAnother() async throws {
        let harness = TestHarness()
        let jane = try await harness.signedIn()
        var bobsProfile = TestHarness.serverProfile
        bobsProfile.userId = "bob-id"
        bobsProfile.email = "bob@example.com"
        let clock = harness.clock
        let bobsServer = InMemoryBackend(
            userId: "bob-id", email: "bob@example.com", password: "bob secret", profile: bobsProfile,
            now: { clock.date() })
        let bobsAccounts = Accounts(
            server: TestHarness.server, apiKey: nil, directory: harness.directory,
            backend: Backend(auth: bobsServer, profiles: bobsServer, progress: bobsServer),
            environment: harness.environment)
        let bob = try await bobsAccounts.signIn(email: "bob@example.com", password: "bob secret").account
        #expect(bob.key != jane.key)

        let weighed = MeasurementSample(.weight, value: 80.5, measuredAt: Date(timeIntervalSince1970: 1_740_000_000))
        let source = FixedHealthSource(HealthSnapshot(biologicalSex: .notSet, samples: [weighed]))
        let inbox = EventInbox()
        let log = EventLog(inbox)
        let slot = AccountSlot(jane)
        let runner = EffectRunner(
            accounts: harness.accounts, slot: slot, inbox: inbox, requestSync: {}, healthSource: { _ in source },
            home: nil)

        runner.perform(.importHealth(path: "export.zip"))
        try await log.next("jane's preview") { event in
            guard case .healthImport(.preview(let lines)) = event else { return false }
            return lines.contains("Weights: 1 found, 1 new.")
        }
        slot.set(bob)
        runner.perform(.confirmImport)
        try await log.next("the import refused") { event in
            if case .healthImport(.failed) = event { true } else { false }
        }
        await runner.finish()
        for (account, owner) in [(jane, "jane"), (bob, "bob")] {
            let weights = try await account.view().history(of: .weight).entries
            #expect(!weights.contains { $0.quantity == 80.5 }, "\(owner) got the weight")
        }
    }
}
