import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Three-way conflicts: the server value an edit was made from, the edit, and the server's value now.
struct ConflictTests {
    private let identity = AccountIdentity(userId: "u1", email: "jane@example.com")

    /// The server's profile after another device changed it.
    private func serverWith(name: String? = nil, bio: String? = nil, heightCm: Double? = nil) -> RemoteProfile {
        var remote = TestHarness.serverProfile
        if let name { remote.metadata.name = name }
        if let bio { remote.metadata.bio = bio }
        if let heightCm { remote.heightCm = heightCm }
        return remote
    }

    /// A synced account whose name was edited here ("Jane Local") and elsewhere ("Jane Server").
    private func nameConflict() throws -> AccountState {
        var state = syncedState()
        try editName(&state, "Jane Local")
        state.mergeServerProfile(serverWith(name: "Jane Server"), identity: identity, now: start)
        return state
    }

    /// The metadata the next delivery sends (a `PUT /users/me`); fails the test when it sends another.
    private func sentMetadata(_ state: inout AccountState) throws -> ProfileMetadata {
        let delivered = state.deliverNext()
        guard case .updateMetadata(let sent, _) = try #require(delivered) else {
            throw ExpectedPUT()
        }
        return sent
    }

    private struct ExpectedPUT: Error {}

    private func editName(_ state: inout AccountState, _ name: String) throws {
        var metadata = try #require(state.profile?.metadata)
        metadata.name = name
        state.editMetadata(metadata, now: start)
    }

    @Test func aFieldTheServerChangedSinceTheEditIsHeldWithBothValues() throws {
        let state = try nameConflict()
        #expect(state.pending.conflicts == [FieldConflict(field: "name", local: "Jane Local", server: "Jane Server")])
        // The local value stays on screen, and nothing overwrites the server's name until it is resolved.
        #expect(state.profile?.metadata.name == "Jane Local")
        let next = state.nextOperation()
        #expect(next == nil)
    }

    @Test func otherPendingFieldsStillGoOutWhileOneIsConflicted() throws {
        var state = syncedState()
        var metadata = try #require(state.profile?.metadata)
        metadata.name = "Jane Local"
        metadata.bio = "Swimmer"
        state.editMetadata(metadata, now: start)
        state.mergeServerProfile(serverWith(name: "Jane Server"), identity: identity, now: start)
        let sent = try sentMetadata(&state)
        #expect(sent.name == "Jane Server")
        #expect(sent.bio == "Swimmer")
        // The conflicted field stays queued after the PUT is acknowledged.
        #expect(state.outbox.metadata?.keys == [.name])
        #expect(state.pending.conflicts.map(\.field) == ["name"])
    }

    @Test func theSameChangeOnBothSidesAndAnUntouchedFieldAreNoConflict() throws {
        var state = syncedState()
        try editName(&state, "Jane Same")
        state.mergeServerProfile(
            serverWith(name: "Jane Same", bio: "Changed elsewhere"), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        #expect(state.profile?.metadata.bio == "Changed elsewhere")
        let next = state.nextOperation()
        #expect(next != nil)
    }

    @Test func aServerStillAtTheBaseIsNoConflict() throws {
        var state = syncedState()
        try editName(&state, "Jane Local")
        state.mergeServerProfile(serverWith(), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        let sent = try sentMetadata(&state)
        #expect(sent.name == "Jane Local")
    }

    /// A second edit made while the first was on its way is based on what the first sent: the
    /// server holding this machine's own earlier value is no conflict.
    @Test func anEditMadeWhileTheLastWasInFlightDoesNotConflictWithIt() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        try editName(&state, "Jane One")
        let physical = try #require(state.outbox.physical)
        let heightPatch = SyncOperation.updatePhysical(PhysicalPatch(heightCm: 181), revision: physical.revision)
        let metadata = try #require(state.profile?.metadata)
        let put = SyncOperation.updateMetadata(metadata, revision: try #require(state.outbox.metadata?.revision))
        state.begin(heightPatch, owner: me, now: start)
        state.begin(put, owner: me, now: start)
        state.record(.height, 182, measuredAt: start.addingTimeInterval(60), source: .manual)
        try editName(&state, "Jane Two")
        state.finish(heightPatch, outcome: .delivered, now: start, random: 0.5)
        state.finish(put, outcome: .delivered, now: start, random: 0.5)

        state.mergeServerProfile(serverWith(name: "Jane One", heightCm: 181), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        #expect(state.profile?.metadata.name == "Jane Two")
        #expect(state.profile?.heightCm == 182)
    }

    /// Another process reads the server while this machine's PATCH is on its way: the server already
    /// holds the sent height, this machine a newer one. No conflict with its own request.
    @Test func aServerReadWhileTheChangeIsInFlightIsNotJudged() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        let patch = SyncOperation.updatePhysical(PhysicalPatch(heightCm: 181), revision: 1)
        state.begin(patch, owner: me, now: start)
        state.record(.height, 182, measuredAt: start.addingTimeInterval(60), source: .manual)
        state.mergeServerProfile(serverWith(heightCm: 181), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        state.finish(patch, outcome: .delivered, now: start, random: 0.5)
        state.mergeServerProfile(serverWith(heightCm: 181), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        let next = state.deliverNext()
        #expect(next == .updatePhysical(PhysicalPatch(heightCm: 182), revision: 2))
    }

    /// A server read that began before this account's own write landed shows its earlier value:
    /// that is no other device's change.
    @Test func aStaleReadShowingThisAccountsOwnEarlierValueIsNoConflict() throws {
        var state = syncedState()
        for height in [180.0, 181] {
            state.record(.height, height, measuredAt: start, source: .manual)
            while state.deliverNext() != nil {}
        }
        state.record(.height, 182, measuredAt: start.addingTimeInterval(60), source: .manual)
        // Reads that began before 181 (or 180) landed.
        state.mergeServerProfile(serverWith(heightCm: 180), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        state.mergeServerProfile(serverWith(heightCm: 181), identity: identity, now: start)
        #expect(state.pending.conflicts.isEmpty)
        // Another device's value is still one.
        state.mergeServerProfile(serverWith(heightCm: 175), identity: identity, now: start)
        #expect(state.pending.conflicts.map(\.field) == ["height"])
    }

    @Test func keepingLocalSendsThisMachinesValue() throws {
        var state = try nameConflict()
        let resolved = state.resolve("name", keepLocal: true)
        #expect(resolved)
        #expect(state.pending.conflicts.isEmpty)
        let sent = try sentMetadata(&state)
        #expect(sent.name == "Jane Local")
        #expect(state.outbox.isEmpty)
        // Resolving again is a no-op: there is nothing left to resolve.
        let again = state.resolve("name", keepLocal: true)
        #expect(!again)
    }

    @Test func takingTheServersValueDropsTheLocalEdit() throws {
        var state = try nameConflict()
        let resolved = state.resolve("name", keepLocal: false)
        #expect(resolved)
        #expect(state.profile?.metadata.name == "Jane Server")
        #expect(state.outbox.isEmpty)
        #expect(state.pending.conflicts.isEmpty)
    }

    @Test func aHeightTheServerChangedSinceIsHeldAndResolvable() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        state.mergeServerProfile(serverWith(heightCm: 175), identity: identity, now: start)
        #expect(state.pending.conflicts == [FieldConflict(field: "height", local: "181.0 cm", server: "175.0 cm")])
        #expect(state.profile?.heightCm == 181)
        // The PATCH does not carry the height; the history POST (a measurement, not a field) still goes.
        while let operation = state.deliverNext() {
            if case .updatePhysical(let patch, _) = operation { #expect(patch.heightCm == nil) }
        }
        #expect(state.outbox.physical?.heightConflict == true)
        let resolved = state.resolve("height", keepLocal: true)
        #expect(resolved)
        let sent = state.deliverNext()
        #expect(sent == .updatePhysical(PhysicalPatch(heightCm: 181), revision: 2))
        #expect(state.outbox.isEmpty)
    }

    @Test func takingTheServersHeightKeepsTheMeasurementInHistory() throws {
        var state = syncedState()
        state.record(.height, 181, measuredAt: start, source: .manual)
        state.mergeServerProfile(serverWith(heightCm: 175), identity: identity, now: start)
        let resolved = state.resolve("height", keepLocal: false)
        #expect(resolved)
        #expect(state.profile?.heightCm == 175)
        #expect(state.pending.conflicts.isEmpty)
        #expect(state.outbox.physical == nil)
        #expect(state.history(of: .height).contains { $0.quantity == 181 })
    }

    /// The server comes back between a check that could not reach it and the send: the profile change
    /// waits for a check instead of going out unchecked over the phone's value.
    @Test func nothingIsSentUncheckedWhenTheCheckMissedTheServer() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "Mine")
        await harness.backend.setProfile(serverWith(bio: "From the phone"))
        await harness.backend.clearRequests()
        // `syncNow`'s check and the drain's first check miss the server; the send would reach it.
        await harness.backend.inject(
            .fail(.unreachable(message: .connectionRefused)), into: .fetchProfile, times: 2)

        let report = try await account.syncNow()

        #expect(await harness.backend.requests(.updateMetadata).isEmpty)
        #expect(report.pending == 1)
        let state = try await account.cached()
        #expect(state.pending.conflicts == [FieldConflict(field: "bio", local: "Mine", server: "From the phone")])
        #expect(await harness.backend.profile?.metadata.bio == "From the phone")
    }

    /// A save whose answer was lost is on the server: a read that shows it shows this machine's own
    /// value. The edit made since is sent, not held forever as a conflict with itself.
    @Test func aValueWhoseAnswerWasLostIsNoConflictWithTheNextEdit() async throws {
        // Given a name saved and sent, taken by the server, its answer lost
        let harness = TestHarness()
        let account = try await harness.synced()
        try await account.updateMetadata(name: "Name 17", bio: "Bio 17")
        await harness.backend.inject(.dropAfterApplying, into: .updateMetadata)
        try await account.push()
        #expect(await harness.backend.profile?.metadata.name == "Name 17")
        #expect(try await account.cached().outbox.metadata != nil)
        // When the next edit is made and synced once the backoff is over
        try await account.updateMetadata(name: "Name 19", bio: "Bio 19")
        harness.clock.advance(by: .seconds(120))
        let report = try await account.syncNow()
        // Then no conflict is made up, and the server holds the latest edit
        #expect(try await account.cached().pending.conflicts == [])
        #expect(report.isSynced)
        #expect(await harness.backend.profile?.metadata.name == "Name 19")
        #expect(await harness.backend.profile?.metadata.bio == "Bio 19")
    }

    /// Whatever holds a change back says so in status: a backoff, a running sender, a conflict.
    @Test func statusSaysWhatHoldsEachChange() async throws {
        let harness = TestHarness()
        let account = try await harness.synced()
        try await account.updateMetadata(bio: "Mine")
        await harness.backend.inject(.fail(.unavailable(status: 503, message: "down")), into: .updateMetadata)
        try await account.push()
        guard case .backoff(let until) = try await account.status().changes.first?.hold else {
            Issue.record("expected a backoff"); return
        }
        #expect(until > harness.clock.date())
        // A phone changes the bio meanwhile: the next read holds the edit as a conflict.
        await harness.backend.setProfile(serverWith(bio: "From the phone"))
        harness.clock.advance(by: .seconds(120))
        try await account.engine.pull()
        #expect(try await account.status().changes.first?.hold == .conflict)
        #expect(PendingChange.Hold.conflict.advice(now: harness.clock.date()).contains("resolved"))
        // Resolved, it goes out at the next sync.
        try await account.apply(.resolveConflict(field: "bio", keepLocal: true))
        #expect(try await account.status().changes.first?.hold == nil)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.profile?.metadata.bio == "Mine")
    }
}
