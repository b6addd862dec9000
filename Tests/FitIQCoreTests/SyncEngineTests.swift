import FitIQTestBasics
import Foundation
import Synchronization
import Testing

@testable import FitIQCore

/// The sync engine against the in-memory backend, on a manual clock: nothing sleeps.
struct SyncEngineTests {
    /// How many times `body` wrote `account`'s cache.
    static func writes(
        of account: Account, in harness: TestHarness, _ body: () async throws -> Void
    ) async throws -> Int {
        let store = harness.store(of: account)
        let before = await store.saveCount
        try await body()
        return await store.saveCount - before
    }

    @Test func hundredOfflineNameEditsArriveAsOnePut() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        for index in 1...100 {
            try await account.updateMetadata(name: "Jane \(index)")
            _ = try await account.engine.drain()
        }
        await harness.backend.setOffline(false)
        harness.clock.advance(by: .seconds(120))
        let report = try await account.engine.drain()
        #expect(report.isSynced)
        let puts = await harness.backend.requests(.updateMetadata)
        let succeeded = puts.last
        #expect(succeeded == .updateMetadata(ProfileMetadata(name: "Jane 100", bio: "Runner", languageCode: "en")))
        // While offline, the backoff held: one failed attempt, then the one that succeeded.
        #expect(puts.count == 2)
        #expect(await harness.backend.profile?.metadata.name == "Jane 100")
    }

    @Test func aSavePushedWritesOnceBeforeAndOnceAfterItsRequestAndReadsNothingAfterIt() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let store = harness.store(of: account)
        let requestsBefore = await harness.backend.requests.count
        let savesBefore = await store.saveCount

        #expect(try await account.updateMetadata(bio: "Trail runner", sending: true))
        #expect(await store.saveCount == savesBefore + 1)
        let report = try await account.push()

        #expect(report.isSynced)
        let requests = await harness.backend.requests.dropFirst(requestsBefore)
        // The conflict check, then the PUT; its answer is the server's copy: no GET, no history read.
        #expect(Array(requests.map(\.kind)) == [.fetchProfile, .updateMetadata])
        // The save's write claimed the PUT; the check found the server unchanged and wrote nothing; the
        // answer was acknowledged in one write.
        let saves = await store.saveCount
        #expect(saves == savesBefore + 2, "saves: \(saves - savesBefore)")
        #expect(try await account.cached().server.copy?.metadata.bio == "Trail runner")
        #expect(await harness.backend.profile?.metadata.bio == "Trail runner")
    }

    @Test(arguments: Metric.all)
    func aMeasurementSentAtOnceWritesOnceBeforeAndOnceAfterItsRequest(metric: Metric) async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let value =
            metric == .height
            ? 181.0
            : metric == .weight
                ? 72.4 : ((metric.allowedRange.lowerBound + metric.allowedRange.upperBound) / 2).rounded()
        let writes = try await Self.writes(of: account, in: harness) { () async throws in
            #expect(try await account.apply(.measurement(metric, value), sending: true).outcome.saved)
            #expect(try await account.push().isSynced)
        }
        #expect(writes == 2)
        #expect(await harness.backend.entries.contains { $0.type == metric.type && $0.quantity == value })
    }

    /// A sync reads the profile and every metric's history together, and merges them in one write:
    /// another device's profile and readings of every type the server records (its BMI too) cost one
    /// write, not one per metric.
    @Test func aSyncMergesEveryMetricsHistoryInOneWrite() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let day = harness.clock.date().addingTimeInterval(-86_400)
        await harness.backend.setEntries(
            Metric.recorded.map { metric in
                RemoteProgressEntry(
                    id: "phone-\(metric.type)", type: metric.type, quantity: metric.allowedRange.upperBound,
                    loggedAt: day)
            })
        var phone = TestHarness.serverProfile
        phone.metadata.bio = "From the phone"
        phone.updatedAt = harness.clock.date()
        await harness.backend.setProfile(phone)
        let writes = try await Self.writes(of: account, in: harness) { () async throws in
            #expect(try await account.syncNow().isSynced)
        }
        #expect(writes == 1)
        let cached = try await account.cached()
        #expect(cached.profile?.metadata.bio == "From the phone")
        for metric in Metric.recorded {
            #expect(cached.history(of: metric).contains { $0.serverId == "phone-\(metric.type)" }, "\(metric)")
        }
    }

    /// A BMI entry another client posted is kept as a `bmi` entry, read back and exported as the server
    /// holds it; the BMI the profile shows stays the one derived from the latest weight and height.
    @Test func aBMIOnTheServerIsKeptBesideTheDerivedOne() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let day = harness.clock.date().addingTimeInterval(-86_400)
        await harness.backend.setEntries([
            RemoteProgressEntry(id: "phone-bmi", type: "bmi", quantity: 31.2, loggedAt: day, notes: "clinic"),
            RemoteProgressEntry(id: "phone-weight", type: "weight", quantity: 72.25, loggedAt: day),
        ])
        #expect(try await account.syncNow().isSynced)

        let kept = try await account.history(of: .recordedBMI, refresh: false)
        #expect(kept.map(\.serverId) == ["phone-bmi"] && kept.first?.notes == "clinic")
        // 72.25 kg at the profile's 170 cm.
        let view = try await account.view()
        #expect(view.bodyMassIndex?.value == 25)
        #expect(view.history(of: .recordedBMI).entries.isEmpty, "the screens' histories are the logged metrics'")
        var rows: [ExportRow] = []
        try await account.export([.bmi]) { rows.append($0) }
        #expect(rows.map(\.source) == ["derived", "server"])
        #expect(rows.map(\.value) == [25, 31.2] && rows.last?.notes == "clinic" && rows.last?.id == "phone-bmi")
        // Nothing of it goes back: a synced entry is no pending change.
        #expect(await harness.backend.requests(.logProgress).isEmpty)
        #expect(await harness.backend.entries.count == 2)
    }

    /// A reservation whose claim is about to run out is claimed again before it is sent: no other
    /// sender can take it while its request is in flight.
    @Test func aReservationAboutToRunOutIsClaimedAgainBeforeItIsSent() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let writes = try await Self.writes(of: account, in: harness) { () async throws in
            try await account.apply(.measurement(.weight, 72.4), sending: true)
            harness.clock.advance(by: .seconds(Outbox.claimDuration - 5))
            #expect(try await account.push().isSynced)
        }
        #expect(writes == 3)
    }

    /// A change reserved at its save is still checked against the server before it goes out.
    @Test func aReservedChangeIsStillJudgedForConflicts() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        var phone = TestHarness.serverProfile
        phone.metadata.bio = "From the phone"
        phone.updatedAt = harness.clock.date()
        await harness.backend.setProfile(phone)
        try await account.updateMetadata(bio: "Mine", sending: true)
        await harness.backend.clearRequests()

        let report = try await account.push()

        #expect(await harness.backend.requests(.updateMetadata).isEmpty)
        #expect(report.pending == 1)
        #expect(try await account.status().conflicts.map(\.field) == ["bio"])
        #expect(try await account.status().changes.first?.hold == .conflict)
        #expect(await harness.backend.profile?.metadata.bio == "From the phone")
    }

    /// What a process reserved at a save and never sent (it ended first) is sent by the next one.
    @Test func aReservationOfAProcessThatEndedIsTakenOver() async throws {
        let harness = TestHarness()
        let ended = Mutex(false)
        let first = ProcessIdentity(pid: 4242, startTime: 1)
        var environment = harness.environment
        environment.process = first
        environment.isRunning = { process in process != first || !ended.withLock { $0 } }
        let accounts = Accounts(
            server: TestHarness.server, apiKey: nil, directory: harness.directory,
            backend: Backend(auth: harness.backend, profiles: harness.backend, progress: harness.backend),
            environment: environment)
        let signedIn = try await accounts.signIn(email: harness.backend.email, password: await harness.backend.password)
        let account = signedIn.account
        try await account.syncNow()
        try await account.apply(.measurement(.weight, 72.4), sending: true)
        // While its process runs, another sender leaves the reserved entry alone.
        let other = try #require(try await accounts.current())
        #expect(try await other.engine.drain().pending == 1)
        #expect(await !harness.backend.entries.contains { $0.type == "weight" })
        #expect(try await other.status().changes.first?.hold == .sending(pid: 4242))
        // Once it has ended, the next sender takes it over.
        ended.withLock { $0 = true }
        #expect(try await other.status().changes.first?.hold == nil)
        #expect(try await other.engine.drain().isSynced)
        #expect(await harness.backend.entries.filter { $0.type == "weight" }.map(\.quantity) == [72.4])
    }

    @Test func theNextSaveFindsTheServerAsThePutAnswerLeftItAndWritesNoMerge() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let store = harness.store(of: account)
        // Each answer's updatedAt differs from the one before.
        harness.clock.advance(by: .seconds(60))
        try await account.updateMetadata(bio: "Trail runner")
        try await account.push()
        harness.clock.advance(by: .seconds(60))
        try await account.updateHeight(centimetres: 181)
        try await account.push()
        harness.clock.advance(by: .seconds(60))
        let savesBefore = await store.saveCount

        // The PUT and PATCH answers' updatedAt is in the cache: the check before the next send finds the
        // server unchanged and writes nothing (save, claim, acknowledgement).
        #expect(try await account.updateMetadata(bio: "Fell runner"))
        let report = try await account.push()

        #expect(report.isSynced)
        let saves = await store.saveCount
        #expect(saves == savesBefore + 3, "saves: \(saves - savesBefore)")
        let server = try #require(await harness.backend.profile)
        #expect(try await account.cached().server.copy == server)
        #expect(try await account.cached().profile?.updatedAt == server.updatedAt)
    }

    /// The real server answers a `PATCH` without `updated_at`: the next check finds the same values under
    /// a newer timestamp, and that is no reason to write.
    @Test func aServerChangedOnlyInItsTimestampWritesNoMerge() async throws {
        let harness = TestHarness()
        await harness.backend.answerPatchesWithoutUpdatedAt(true)
        let account = try await harness.synced()
        harness.clock.advance(by: .seconds(60))
        try await account.updateHeight(centimetres: 181, sending: true)
        try await account.push()
        harness.clock.advance(by: .seconds(60))

        let writes = try await Self.writes(of: account, in: harness) { () async throws in
            #expect(try await account.updateMetadata(bio: "Fell runner", sending: true))
            #expect(try await account.push().isSynced)
        }
        #expect(writes == 2)
    }

    @Test func savingTheValueAlreadyThereChangesNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        let saves = await harness.store(of: account).saveCount
        let bio = try #require(try await account.cached().profile?.metadata.bio)

        #expect(try await account.apply(.metadata(bio: bio)).outcome == .metadataUnchanged)

        #expect(await harness.store(of: account).saveCount == saves)
        #expect(try await account.cached().pending.count == 0)
    }

    @Test func aHeightChangeSendsOnePatchAndOneProgressEntry() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateHeight(centimetres: Height.parse("5'11\"", unitSystem: .imperial))
        try await account.engine.drain()
        let patches = await harness.backend.requests(.updatePhysical)
        let posts = await harness.backend.requests(.logProgress)
        #expect(patches.count == 1)
        #expect(posts.count == 1)
        guard case .updatePhysical(let patch) = patches.first else { return }
        #expect(patch.biologicalSex == nil)
        #expect(abs((patch.heightCm ?? 0) - 180.34) < 0.001)
        #expect(await harness.backend.entries.filter { $0.notes == nil }.count == 1)
    }

    @Test(.timeLimit(.minutes(1))) func twoConcurrent401sCauseExactlyOneRefresh() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.expireAccessTokens()
        // No 401 is answered until two requests met the expired token: they overlap whatever the
        // machine's load.
        await harness.backend.holdRefusals(until: 2)
        async let first = account.engine.pull()
        async let second = account.history(of: .height, refresh: true)
        _ = try await (first, second)
        #expect(await harness.backend.requests(.refresh).count == 1)
        // One refresh shared in the process: the session file was exchanged once, not once per 401.
        #expect(await harness.sessions(of: account).exchangeCount == 1)
        #expect(await harness.sessions(of: account).session?.isSignedIn == true)
    }

    @Test func aTokenRotatedByAnotherProcessIsUsedWithoutRefreshing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let old = try #require(await harness.sessions(of: account).session?.tokens?.accessToken)
        // Another process refreshed and stored a new pair; this one still holds the old access token.
        var rotated = try #require(await harness.sessions(of: account).session)
        rotated.tokens = await harness.backend.issueTokens()
        await harness.sessions(of: account).save(rotated)
        let token = try await account.session.refresh(replacing: old)
        #expect(token == rotated.tokens?.accessToken)
        #expect(await harness.backend.requests(.refresh).isEmpty)
    }

    @Test func aTokenAnotherRequestRotatedThatExpiredMeanwhileIsRenewedNotTheEndOfTheSession() async throws {
        // Given 3-second access tokens, and a request that set out with the first one
        let harness = TestHarness()
        await harness.backend.setAccessTokenLifetime(3)
        let account = try await harness.signedIn()
        let first = try #require(await harness.sessions(of: account).session?.tokens?.accessToken)
        let sentWith = Mutex<[String]>([])
        // When another request rotates the tokens while this one waits for its answer, and the answer
        // (a 401) arrives after the rotated token expired too
        let profile = try await account.session.authorized { token throws(RemoteError) in
            sentWith.withLock { $0.append(token) }
            if token == first {
                _ = try? await account.session.refresh(replacing: first)
                harness.clock.advance(by: .seconds(4))
            }
            return try await harness.backend.fetchProfile(accessToken: token)
        }
        // Then the rotated token, refused, is renewed once more and the call goes through signed in
        #expect(profile.metadata.name == "Jane Doe")
        let tokens = sentWith.withLock { $0 }
        #expect(tokens.count == 3)
        #expect(Set(tokens).count == 3)
        #expect(await harness.backend.requests(.refresh).count == 2)
        #expect(await harness.sessions(of: account).session?.isSignedIn == true)
    }

    @Test func aTokenIssuedForThisCallAndRefusedEndsTheSession() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let calls = Mutex(0)
        await #expect(throws: SessionError.signedOut(server: account.key.server, reason: "revoked")) {
            try await account.session.authorized { _ throws(RemoteError) -> Int in
                calls.withLock { $0 += 1 }
                throw .unauthorized(message: "revoked")
            }
        }
        // The first token refused, one refresh, its token refused: no further renewal.
        #expect(calls.withLock { $0 } == 2)
        #expect(await harness.backend.requests(.refresh).count == 1)
        #expect(await harness.sessions(of: account).session?.isSignedIn == false)
    }

    @Test func aTokenDueSoonIsRefreshedBeforeTheCall() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        harness.clock.advance(by: .seconds(3600 - 200))  // within 5 minutes of exp
        try await account.engine.pull()
        #expect(await harness.backend.requests(.refresh).count == 1)
        let gets = await harness.backend.requests(.fetchProfile).count
        #expect(gets == 1)
    }

    @Test func aRevokedRefreshTokenSignsOutAndKeepsTheOutbox() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "kept")
        await harness.backend.expireAccessTokens()
        await harness.backend.inject(.fail(.unauthorized(message: "refresh token has been revoked")), into: .refresh)
        await #expect(
            throws: SessionError.signedOut(server: account.key.server, reason: "refresh token has been revoked")
        ) {
            try await account.engine.drain()
        }
        let state = try await account.cached()
        #expect(state.pending.count == 1)
        #expect(state.outbox.metadata?.delivery.claim == nil)
        #expect(await harness.sessions(of: account).session?.tokens == nil)
        #expect(try await account.status().signedIn == false)
    }

    @Test func aMissingProfileIsCreatedThenUpdated() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "After reset")
        await harness.backend.setProfile(nil)
        try await account.engine.drain()
        let kinds = await harness.backend.requests.map(\.kind)
        #expect(kinds == [.updateMetadata, .createProfile, .updateMetadata])
        #expect(await harness.backend.profile?.metadata.name == "After reset")
    }

    @Test func aConflictOnCreateMeansTheProfileExists() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "Raced")
        await harness.backend.inject(.fail(.notFound(message: "User profile not found")), into: .updateMetadata)
        try await account.engine.drain()
        let kinds = await harness.backend.requests.map(\.kind)
        #expect(kinds == [.updateMetadata, .createProfile, .updateMetadata])
        #expect(try await account.cached().outbox.isEmpty)
    }

    @Test func a404OnPatchForAnExistingProfileStaysPending() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.height, 182))
        await harness.backend.inject(.fail(.notFound(message: "User profile not found")), into: .updatePhysical)
        try await account.engine.drain()
        let kinds = await harness.backend.requests.map(\.kind)
        // The PATCH (its history entry's POST goes out beside it), then the GET that confirms the profile.
        let patch = try #require(kinds.firstIndex(of: .updatePhysical))
        let check = try #require(kinds.firstIndex(of: .fetchProfile))
        #expect(patch < check)
        #expect(!kinds.contains(.createProfile))
        let state = try await account.cached()
        #expect(state.outbox.physical != nil)
        #expect(state.outbox.physical?.delivery.rejection == nil)
        // Later it goes through.
        harness.clock.advance(by: .seconds(5))
        #expect(try await account.engine.drain().isSynced)
        #expect(await harness.backend.profile?.heightCm == 182)
    }

    @Test func otherClientErrorsAreRejectedWithTheServersMessage() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "Fine")
        try await account.apply(.measurement(.height, 150))
        await harness.backend.inject(
            .fail(.rejected(status: 400, message: "Height is not plausible")), into: .updatePhysical)
        let report = try await account.engine.drain()
        #expect(report.rejected == 1)
        #expect(report.pending == 0)
        let status = try await account.status()
        #expect(status.changes.contains { $0.rejection == "Height is not plausible" })
        // The metadata succeeded while the height was rejected.
        #expect(await harness.backend.profile?.metadata.name == "Fine")
        #expect(try await account.cached().profile?.heightCm == 150)
    }

    @Test func anAmbiguousPostIsCheckedBeforeResending() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.inject(.dropAfterApplying, into: .logProgress)
        try await account.apply(.measurement(.height, 183))
        try await account.engine.drain()
        harness.clock.advance(by: .seconds(5))
        try await account.engine.drain()
        #expect(await harness.backend.entries.filter { $0.quantity == 183 }.count == 1)
        #expect(await harness.backend.requests(.logProgress).count == 1)
        #expect(try await account.cached().history(of: .height).first?.isSynced == true)
    }

    @Test func retriesWaitOnTheInjectedClock() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "Patient")
        await harness.backend.inject(.fail(.unavailable(status: 503, message: "busy")), into: .updateMetadata, times: 3)
        let deadline = harness.clock.date().addingTimeInterval(30)
        let drain = Task { try await account.engine.drain(until: deadline) }
        for _ in 0..<3 {
            try await harness.clock.waitForSleepers(1)
            harness.clock.advanceToNextDeadline()
        }
        let report = try await drain.value
        #expect(report.isSynced)
        #expect(await harness.backend.requests(.updateMetadata).count == 4)
        // Backoff 0.75 s, 1.5 s, 3 s with jitter 0.5: the clock moved 5.25 s, nothing slept for real.
        #expect(harness.clock.now.offset == .milliseconds(5250))
    }

    @Test func drainStopsAtTheDeadlineWithChangesPending() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "Late")
        await harness.backend.setOffline(true)
        await harness.backend.clearRequests()
        let deadline = harness.clock.date().addingTimeInterval(2)
        let drain = Task { try await account.engine.drain(until: deadline) }
        // Attempt at 0 s, backoff 0.75 s, attempt, backoff 1.5 s: past the 2 s deadline, so it returns.
        // The second attempt starts with the conflict check, which misses the server: the PUT is not
        // sent unchecked.
        try await harness.clock.waitForSleepers(1)
        harness.clock.advanceToNextDeadline()
        let report = try await drain.value
        #expect(report.pending == 1)
        #expect(await harness.backend.requests(.updateMetadata).count == 1)
        let gets = await harness.backend.requests(.fetchProfile).count
        #expect(gets == 1)
        #expect(report.lastProblem?.description.contains("could not be reached") == true)
    }

    @Test func aPushStopsAtTheFirstAttemptThatFindsNoWayToTheServer() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(name: "Offline")
        try await account.apply(.measurement(.weight, 80.1))
        await harness.backend.setOffline(true)
        await harness.backend.clearRequests()
        // A deadline far off, and no sleep: the first refused attempt ends the push.
        let report = try await account.push(until: harness.clock.date().addingTimeInterval(60))
        #expect(harness.clock.sleepsBegun == 0)
        #expect(report.pending == 2)
        #expect(report.lastProblem?.isOffline == true)
        let requests = await harness.backend.requests
        #expect(requests.count == 1, "\(requests)")
        // Both changes say why they wait, and the next push waits for nothing either.
        let changes = try await account.status().changes
        #expect(changes.allSatisfy { $0.lastProblem?.isOffline == true }, "\(changes)")
        _ = try await account.push(until: harness.clock.date().addingTimeInterval(60))
        #expect(harness.clock.sleepsBegun == 0)
    }

    @Test func aPushKeepsTryingAfterAServerErrorUntilItsDeadline() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "Busy server")
        await harness.backend.inject(.fail(.unavailable(status: 503, message: "busy")), into: .updateMetadata)
        await harness.backend.clearRequests()
        let push = Task { try await account.push(until: harness.clock.date().addingTimeInterval(60)) }
        try await harness.clock.waitForSleepers(1)
        harness.clock.advanceToNextDeadline()
        let report = try await push.value
        #expect(report.isSynced)
        #expect(await harness.backend.requests(.updateMetadata).count == 2)
    }

    /// A delivery tries again only within its one deadline, on the account's clock, and starts nothing
    /// after it: what is still pending then waits for the next sync.
    @Test func aDeliveryKeepsToItsDeadlineOnTheAccountsClock() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "Busy server")
        await harness.backend.inject(
            .fail(.unavailable(status: 503, message: "busy")), into: .updateMetadata, times: 50)
        await harness.backend.clearRequests()
        let start = harness.clock.date()
        let done = Mutex(false)
        let delivery = Task {
            defer { done.withLock { $0 = true } }
            return try await account.deliver()
        }
        // Each retry waits on the manual clock: it moves on to the next wait until the delivery ends.
        while !done.withLock({ $0 }) {
            if harness.clock.sleeperCount > 0 { harness.clock.advanceToNextDeadline() } else { await Task.yield() }
        }
        let report = try await delivery.value
        #expect(report.pending == 1)
        #expect(await harness.backend.requests(.updateMetadata).count > 1)
        let deadline = start.addingTimeInterval(Double(Account.deliveryDeadline.components.seconds))
        #expect(harness.clock.date() <= deadline)
    }

    @Test func manyHeightEntriesGoInBatchesOfFewCacheWrites() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.logSeptemberHeights(20)
        let store = harness.store(of: account)
        let before = await store.saveCount
        try await account.engine.drain()
        let posts = await harness.backend.requests(.logProgress)
        #expect(posts.count == 20)
        #expect(Set(posts.map { "\($0)" }).count == 20)
        #expect(try await account.cached().outbox.progress.isEmpty)
        #expect(try await account.cached().history.filter { $0.source == .manual }.allSatisfy(\.isSynced))
        // 20 posts in batches of 8: 3 batches of two writes each, plus the PATCH's two (one per request
        // would be 42).
        #expect(await store.saveCount - before <= 10)
    }

    @Test func aFailureInABatchDelaysOnlyItsEntry() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        for day in 1...3 {
            try await account.apply(
                .measurement(.height, 170 + Double(day) / 10, day: CalendarDate(year: 2026, month: 9, day: day)))
        }
        await harness.backend.inject(.fail(.unavailable(status: 503, message: "busy")), into: .logProgress)
        try await account.engine.drain()
        let state = try await account.cached()
        #expect(state.outbox.progress.count == 1)
        #expect(state.outbox.progress.first?.delivery.lastProblem?.description.contains("busy") == true)
        #expect(state.history.filter { $0.source == .manual && $0.isSynced }.count == 2)
    }
}
