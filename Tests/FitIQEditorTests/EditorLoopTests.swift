import FitIQEditor
import FitIQTUI
import FitIQTestBasics
import Foundation
import Synchronization
import Testing

@testable import FitIQCore

/// The editor loop with a fake terminal, the in-memory backend and the manual clock: keys in, frames
/// out, use cases and sync in the same process, reported back as events.
@Suite(.timeLimit(.minutes(5)))
struct EditorLoopTests {
    @Test func aNameTypedAndSavedReachesTheServer() async throws {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") && $0.shows("Jane Doe") }

        run.terminal.send(.key(.enter))
        run.terminal.send(.key(.control("u")), when: { $0.shows("Enter confirm") })
        run.terminal.type("Zoë Runner")
        run.terminal.send(.key(.enter), when: { $0.shows("Zoë Runner") })
        run.terminal.send(.key(.control("s")), when: { $0.shows("Zoë Runner *") })
        let saved = try await run.waitFor("the name saved and synced") {
            $0.shows("Zoë Runner") && !$0.shows("Zoë Runner *") && !$0.shows("Enter confirm")
                && $0.title.contains("● synced")
        }

        #expect(saved.title.contains("jane@example.com"))
        #expect(try await run.account.cached().profile?.name == "Zoë Runner")
        // The fake terminal's timeouts never expire: keys and results woke the loop, no timeout did.
        #expect(run.terminal.expiredTimeouts == 0)
        let puts = await run.harness.backend.requests(.updateMetadata)
        #expect(
            puts.contains {
                if case .updateMetadata(let metadata) = $0 { metadata.name == "Zoë Runner" } else { false }
            })
        try await run.quit()
    }

    @Test func memoryIsGivenBackAfterEachSyncRound() async throws {
        let (releases, released) = AsyncStream.makeStream(of: Void.self)
        let run = try await EditorRun.start(releaseMemory: { released.yield() })
        let nextRelease: @Sendable () async -> Bool? = {
            for await _ in releases { return true }
            return nil
        }
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") }
        try await withHangGuard("the first round's release", nextRelease)
        let fetched = await run.harness.backend.requests(.fetchProfile).count

        // The `s` key asks for a round; memory is given back once it is done, not before.
        run.terminal.send(.key(.character("s")))
        try await withHangGuard("the second round's release", nextRelease)
        #expect(await run.harness.backend.requests(.fetchProfile).count == fetched + 1)
        try await run.quit()
    }

    @Test func aHeightTypedAsTheSameValueSaysNothingToSaveAndSendsNothing() async throws {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") && $0.shows("170.0 cm") }
        try await run.harness.clock.waitForSleepers(1)
        await run.harness.backend.clearRequests()

        // "170" differs from the "170.0 cm" shown as text, not as a height.
        for _ in 0..<4 { run.terminal.send(.key(.tab)) }
        run.terminal.send(.key(.enter))
        run.terminal.send(.key(.control("u")), when: { $0.shows("Enter confirm") })
        run.terminal.type("170")
        run.terminal.send(.key(.enter), when: { $0.lines.contains { $0.contains("Height") && $0.contains(" 170 ") } })
        run.terminal.send(.key(.control("s")), when: { $0.shows("170 *") })

        try await run.waitFor("the message", advancingClock: false) { $0.shows("Nothing to save.") }
        #expect(run.terminal.frames.last?.shows("Height saved.") == false)
        #expect(await run.harness.backend.requests(.updatePhysical).isEmpty)
        #expect(await run.harness.backend.requests(.logProgress).isEmpty)
        try await run.quit()
    }

    @Test func anotherProcesssChangeAppearsWithoutAKey() async throws {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") && $0.shows("Runner") }
        let frames = run.terminal.frameCount

        // Another process writes the cache, as `fitiq-tui profile set --bio` in another terminal does:
        // through the store, not through the editor (an account object of its own on the same store).
        let other = Account(
            key: run.account.key, email: run.account.email, store: run.account.store, sessions: run.account.sessions,
            backend: Backend(auth: run.harness.backend, profiles: run.harness.backend, progress: run.harness.backend),
            environment: run.harness.environment)
        try await other.updateMetadata(bio: "Written in another terminal")

        try await run.waitFor("the other process's bio") { $0.shows("Written in another terminal") }
        #expect(run.terminal.frameCount > frames)
        try await run.quit()
    }

    @Test func anotherProcesssChangeTheWatchReportsAppearsWithoutASync() async throws {
        let watch = FakeCacheWatch()
        let run = try await EditorRun.start(cacheWatch: watch)
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") && $0.shows("Runner") }
        try await watch.waitUntilWatched()
        // The sync sleeps until its next round, which the standing clock never brings.
        try await run.harness.clock.waitForSleepers(1)
        await run.harness.backend.clearRequests()

        let other = Account(
            key: run.account.key, email: run.account.email, store: run.account.store, sessions: run.account.sessions,
            backend: Backend(auth: run.harness.backend, profiles: run.harness.backend, progress: run.harness.backend),
            environment: run.harness.environment)
        try await other.updateMetadata(bio: "Written in another terminal")
        watch.report()

        // The clock stands still: no scheduled sync brings it, the watch does.
        try await run.waitFor("the other process's bio", advancingClock: false) {
            $0.shows("Written in another terminal")
        }
        #expect(await run.harness.backend.requests(.fetchProfile).isEmpty)
        try await run.quit()
    }

    @Test func aSaveStartsItsSyncWithoutTheClockMoving() async throws {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") && $0.shows("Jane Doe") }
        try await run.harness.clock.waitForSleepers(1)
        let before = run.harness.clock.now

        run.terminal.send(.key(.tab))
        run.terminal.send(.key(.enter), when: { $0.shows("›Bio") })
        run.terminal.send(.key(.control("u")), when: { $0.shows("Enter confirm") })
        run.terminal.type("Saved and sent")
        run.terminal.send(.key(.enter), when: { $0.shows("Saved and sent") })
        run.terminal.send(.key(.control("s")), when: { $0.shows("Saved and sent *") })
        // The clock stands still: only a sync started by the save itself can send it.
        try await withHangGuard("the bio sent to the server") {
            while !Task.isCancelled {
                let puts = await run.harness.backend.requests(.updateMetadata)
                let sent = puts.contains {
                    if case .updateMetadata(let metadata) = $0 { metadata.bio == "Saved and sent" } else { false }
                }
                if sent { return true }
                await Task.yield()
            }
            return nil
        }
        try await run.waitFor("the bio saved and synced", advancingClock: false) {
            $0.shows("Saved and sent") && !$0.shows("Saved and sent *") && $0.title.contains("● synced")
        }
        #expect(run.harness.clock.now == before)
        #expect(try await run.account.cached().pending.count == 0)
        try await run.quit()
    }

    @Test func aSaveWhileOfflineSaysSoAndIsSentWhenAskedLater() async throws {
        let run = try await EditorRun.savingBioOffline("Offline bio")

        await run.harness.backend.setOffline(false)
        run.terminal.send(.key(.character("s")))
        try await run.waitFor("synced once the server answers") {
            $0.title.contains("● synced") && !$0.title.contains("pending")
        }
        #expect(try await run.account.cached().pending.count == 0)
        try await run.quit()
    }

    @Test func aBioChangedOnThePhoneWhileThisOneWasOfflineIsHeldUntilKept() async throws {
        let run = try await EditorRun.savingBioOffline("Mine")

        // The phone changes the bio meanwhile; then the server is reachable again.
        var phone = TestHarness.serverProfile
        phone.metadata.bio = "From the phone"
        await run.harness.backend.setProfile(phone)
        await run.harness.backend.clearRequests()
        await run.harness.backend.setOffline(false)
        run.terminal.send(.key(.character("s")))
        try await run.waitFor("the conflict counted") { $0.title.contains("! 1 conflict") }
        run.terminal.send(.key(.character("h")))
        try await run.waitFor("both values in the sync details") {
            $0.shows(#"bio: here "Mine", on the server "From the phone""#)
        }
        #expect(await run.harness.backend.requests(.updateMetadata).isEmpty)

        run.terminal.send(.key(.character("k")))
        try await run.waitFor("this machine's bio sent") {
            $0.title.contains("● synced") && !$0.title.contains("conflict")
        }
        let puts = await run.harness.backend.requests(.updateMetadata)
        #expect(puts.contains { if case .updateMetadata(let metadata) = $0 { metadata.bio == "Mine" } else { false } })
        try await run.quit()
    }

    @Test func aHealthExportThatCannotBeOpenedSaysWhyWithTheHomeExpanded() async throws {
        let run = try await EditorRun.start(healthSource: { path in
            throw OpenFailure(description: "Path: no file at \(path).")
        })
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") }

        run.terminal.send(.key(.character("i")))
        run.terminal.type("~/missing.zip")
        run.terminal.send(.key(.enter), when: { $0.shows("~/missing.zip") })

        try await run.waitFor("why the file cannot be imported") {
            $0.shows("Path: no file at /home/tester/missing.zip.")
        }
        run.terminal.send(.key(.escape))
        try await run.quit()
    }

    /// An Apple Health export is read and shown first, as another app's files are: Enter imports what
    /// was shown, and nothing is written or sent before it.
    @Test func aHealthExportIsShownBeforeAnythingIsImported() async throws {
        var snapshot = HealthSnapshot(
            biologicalSex: .value(.female),
            samples: [
                MeasurementSample(.weight, value: 80.5, measuredAt: Date(timeIntervalSince1970: 1_740_000_000)),
                MeasurementSample(.weight, value: 79.8, measuredAt: Date(timeIntervalSince1970: 1_740_600_000)),
            ])
        let watch = snapshot.activity.source("apple-health/Apple Watch", app: .health)
        for day in 0..<3 {
            let at = Date(timeIntervalSince1970: 1_740_000_000 + Double(day) * 86_400)
            snapshot.activity.add(.steps, 4_000, at: LocalInstant(at, in: .utc), source: watch)
        }
        let source = FixedHealthSource(snapshot)
        let run = try await EditorRun.start(healthSource: { _ in source })
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") }
        let store = run.harness.store(of: run.account)
        let imported: @Sendable () async throws -> Int = {
            try await store.load().history.filter { $0.type == Metric.steps.type || $0.type == Metric.weight.type }
                .count
        }

        run.terminal.send(.key(.character("i")))
        run.terminal.type("~/export.zip")
        run.terminal.send(.key(.enter), when: { $0.shows("~/export.zip") })
        try await run.waitFor("the preview") {
            $0.shows("Import: what was found") && $0.shows("Weights: 2 found, 2 new.")
                && $0.shows("Steps: 3 days found, 3 new, 0 held already.")
        }
        #expect(try await imported() == 0, "the preview wrote the cache")
        #expect(await run.harness.backend.requests(.logProgress).isEmpty)

        run.terminal.send(.key(.enter))
        try await run.waitFor("the import done and sent") {
            $0.shows("Health data imported") && $0.shows("Biological sex") && $0.title.contains("● synced")
        }
        #expect(try await imported() == 5)
        #expect(await run.harness.backend.requests(.logProgress).count == 5)
        #expect(source.readCount == 1)
        run.terminal.send(.key(.escape))

        // Esc on a second preview imports nothing, and says so.
        run.terminal.send(.key(.character("i")), when: { !$0.shows("Weights: 2 found") })
        run.terminal.type("~/export.zip")
        run.terminal.send(.key(.enter), when: { $0.shows("~/export.zip") })
        try await run.waitFor("the second preview") {
            $0.shows("Weights: 2 found, 0 new.") && $0.shows("Steps: 3 days found, 0 new, 3 held already.")
        }
        run.terminal.send(.key(.escape))
        try await run.waitFor("the preview dropped") { $0.shows("Nothing was imported.") }
        #expect(await run.harness.backend.requests(.logProgress).count == 5)
        try await run.quit()
    }

    /// A quit while the background sync is writing the cache: ``EditorLoop/finish()`` returns only once
    /// that write is done, so nothing is written after the editor has ended (the demo then removes its
    /// folder once).
    @Test func finishingWaitsForTheSyncsCacheWriteUnderWay() async throws {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") }
        let store = run.harness.store(of: run.account)
        await store.holdNextUpdate()
        var changed = TestHarness.serverProfile
        changed.metadata.name = "Changed elsewhere"
        await run.harness.backend.setProfile(changed)
        run.terminal.send(.key(.character("s")))
        try await withHangGuard("the sync's cache write") {
            await store.waitUntilUpdateIsHeld()
            return true
        }
        run.terminal.send(.key(.character("q")))
        try await run.waitForEnd()
        // Released while finish() waits.
        let release = Task { await store.releaseUpdate() }
        await run.loop.finish()
        #expect(await store.heldUpdatesApplied == 1, "finish() returned before the sync's write was done")
        await release.value
    }

    struct OpenFailure: Error, CustomStringConvertible {
        let description: String
    }
}

/// One editor loop running on a thread of its own against a fresh in-memory account.
struct EditorRun: Sendable {
    let harness: TestHarness
    let account: Account
    let loop: EditorLoop
    let terminal: FakeTerminal
    /// Finished by the loop's thread when `run` returns.
    private let ended: AsyncStream<Void>

    static func start(
        healthSource: (@Sendable (String) throws -> any HealthSource)? = nil, cacheWatch: (any CacheWatch)? = nil,
        releaseMemory: @escaping @Sendable () -> Void = {}
    ) async throws -> EditorRun {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let clock = harness.clock
        var dependencies = EditorLoop.Dependencies(
            clock: clock, timeZone: .utc, home: "/home/tester",
            healthSource: healthSource, cacheWatch: cacheWatch)
        dependencies.releaseMemory = releaseMemory
        let loop = EditorLoop(accounts: harness.accounts, account: account, dependencies: dependencies)
        let terminal = FakeTerminal()
        // A sleep beginning is a change a waiting test looks at (``waitFor(_:advancingClock:_:)``).
        clock.whenSleepBegins { [weak terminal] in terminal?.poke() }
        let initial = await loop.initialState(size: terminal.size)
        let (ended, finished) = AsyncStream.makeStream(of: Void.self)
        let run = EditorRun(harness: harness, account: account, loop: loop, terminal: terminal, ended: ended)
        // `run(on:state:)` blocks like the real key loop: it gets a thread, not a task of the pool.
        let thread = Thread { [run] in
            run.loop.run(on: run.terminal, state: initial)
            finished.finish()
        }
        thread.start()
        return run
    }

    /// A run whose bio was typed and saved with the server unreachable, pending once the editor says so.
    static func savingBioOffline(_ bio: String) async throws -> EditorRun {
        let run = try await EditorRun.start()
        try await run.waitFor("the synced profile") { $0.title.contains("● synced") }
        await run.harness.backend.setOffline(true)

        run.terminal.send(.key(.tab))
        run.terminal.send(.key(.enter), when: { $0.shows("›Bio") })
        run.terminal.send(.key(.control("u")), when: { $0.shows("Enter confirm") })
        run.terminal.type(bio)
        run.terminal.send(.key(.enter), when: { $0.shows(bio) })
        run.terminal.send(.key(.control("s")), when: { $0.shows("\(bio) *") })
        try await run.waitFor("the change pending while offline") {
            $0.title.contains("offline · 1 change pending") && !$0.shows("\(bio) *")
        }
        return run
    }

    /// Waits until the last frame satisfies `condition`. With `advancingClock`, it moves the manual
    /// clock on meanwhile, so that retries and scheduled syncs come; without, only what wakes the
    /// editor at once shows. The deadline only guards against hangs.
    @discardableResult
    func waitFor(
        _ what: String, advancingClock: Bool = true, _ condition: @escaping @Sendable (CellBuffer) -> Bool
    ) async throws -> CellBuffer {
        guard advancingClock else {
            do {
                return try await terminal.frame(what, where: condition)
            } catch {
                Issue.record("the screen was:\n\(terminal.screen?.description ?? "")")
                throw error
            }
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))
        let clock = harness.clock
        while true {
            if let screen = terminal.screen, condition(screen) { return screen }
            if ContinuousClock.now > deadline {
                Issue.record("the editor never showed \(what); the screen was:\n\(terminal.screen?.description ?? "")")
                throw CancellationError()
            }
            // Time moves on to the next thing waiting for it, and the test waits for what that does: a
            // frame, or a new sleep on the clock (a retry put off, a tick).
            let (frames, sleeps) = (terminal.frameCount, clock.sleepsBegun)
            clock.advanceToNextDeadline()
            try await terminal.until("\(what) (a frame or a sleep after the clock moved)") { [terminal] in
                terminal.frameCount > frames || clock.sleepsBegun > sleeps
                    || (terminal.screen.map(condition) ?? false)
            }
        }
    }

    /// Presses q and waits for the loop to end and its saves to finish.
    func quit() async throws {
        terminal.send(.key(.character("q")))
        try await waitForEnd()
        await loop.finish()
    }

    /// Waits until the loop has ended (`run` returned).
    func waitForEnd() async throws {
        do {
            try await withHangGuard("the editor's end") { [ended] in
                for await _ in ended {}
                return true
            }
        } catch {
            Issue.record("the editor did not quit; the screen was:\n\(terminal.screen?.description ?? "")")
            throw error
        }
    }
}
