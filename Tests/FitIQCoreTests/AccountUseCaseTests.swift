import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Profile, height, health and sync use cases.
struct AccountUseCaseTests {
    @Test func metadataEditsAreValidatedBeforeAnythingIsSaved() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await #expect(throws: ValidationError.tooLong(.name, limit: 100, count: 101)) {
            try await account.updateMetadata(name: String(repeating: "x", count: 101))
        }
        await #expect(throws: ValidationError.self) { try await account.updateMetadata(languageCode: "xx-invalid-!!") }
        #expect(try await account.cached().outbox.isEmpty)
        #expect(try await account.updateMetadata(languageCode: "PT-br"))
        #expect(try await account.cached().profile?.languageCode == "pt-BR")
    }

    /// A server value this client's rules refuse (another app wrote it, or an answer came back garbled)
    /// never blocks an edit of another field: only what changes is checked.
    @Test func aServerValueTheRulesRefuseDoesNotBlockAnEditOfAnotherField() async throws {
        var odd = TestHarness.serverProfile
        odd.metadata.languageCode = "xx-invalid-!!"
        odd.metadata.bio = String(repeating: "b", count: 600)
        let harness = TestHarness(profile: odd)
        let account = try await harness.signedIn()
        #expect(try await account.updateMetadata(name: "Jane Again"))
        #expect(try await account.cached().profile?.name == "Jane Again")
        #expect(try await account.engine.drain().isSynced)
        #expect(await harness.backend.profile?.metadata.name == "Jane Again")
        // A changed field is still checked.
        await #expect(throws: ValidationError.self) { try await account.updateMetadata(languageCode: "yy-!!") }
    }

    @Test func clearingBioSendsAnEmptyString() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "")
        try await account.engine.drain()
        #expect(await harness.backend.profile?.metadata.bio == "")
    }

    @Test func anUnchangedHeightFieldChangesNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(unitSystem: .imperial)
        // 170 cm shows as 5 ft 7 in; confirming that text must not turn it into 170.18 cm.
        #expect(try await !account.updateHeight(centimetres: Height.parse("5 ft 7 in", unitSystem: .imperial)))
        #expect(try await account.cached().profile?.heightCm == 170)
        #expect(try await account.cached().outbox.physical == nil)
    }

    @Test func aPastHeightIsLoggedButDoesNotBecomeCurrent() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.apply(.measurement(.height, 181))
        let lastMonth = CalendarDate(containing: harness.clock.date(), in: .utc).adding(days: -30)
        let past = try await account.apply(.measurement(.height, 175, day: lastMonth)).outcome
        guard case .logged(_, let isCurrentHeight) = past else {
            Issue.record("\(past)")
            return
        }
        #expect(!isCurrentHeight)
        let state = try await account.cached()
        #expect(state.profile?.heightCm == 181)
        // Newest first; the initial height from the profile (170) is the oldest.
        #expect(state.history(of: .height).map(\.quantity) == [181, 175, 170])
        #expect(state.history(of: .height)[1].loggedAt == lastMonth.instant(atHour: 12, in: .utc))
        await #expect(throws: ValidationError.self) {
            let tomorrow = CalendarDate(containing: harness.clock.date(), in: .utc).adding(days: 1)
            try await account.apply(.measurement(.height, 175, day: tomorrow))
        }
    }

    @Test func historyPagesThroughMoreThanAHundredEntries() async throws {
        let harness = TestHarness()
        let base = harness.clock.date()
        await harness.backend.setEntries(
            (0..<250).map { day in
                RemoteProgressEntry(
                    id: "e\(day)", type: "height", quantity: 170 + Double(day % 5) / 10,
                    loggedAt: base.addingTimeInterval(-86_400 * Double(day)))
            })
        let account = try await harness.signedIn()
        let history = try await account.history(of: .height, refresh: false)
        #expect(history.count == 250)
        #expect(history.first?.serverId == "e0")
        #expect(try await account.cached().outbox.isEmpty)
    }

    @Test func theFirstSyncPostsOneInitialHeightAndOnlyOne() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        #expect(await harness.backend.entries.map(\.notes) == [ProgressEntry.initialHeightNote])
        try await account.syncNow()
        try await account.engine.refreshHistory(full: true)
        try await account.engine.drain()
        #expect(await harness.backend.entries.count == 1)
    }

    @Test func syncNowEndsTheBackoff() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.inject(.fail(.unavailable(status: 503, message: "busy")), into: .updateMetadata)
        try await account.updateMetadata(name: "Now")
        #expect(try await account.engine.drain().pending == 1)
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.profile?.metadata.name == "Now")
    }

    @Test func biologicalSexIsSentOnlyWhenTheHealthValueChanges() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let source = FixedHealthSource(HealthSnapshot(biologicalSex: .value(.female), exportedAt: start))
        #expect(try await account.syncBiologicalSex(from: source) == .queued(.female))
        try await account.engine.drain()
        #expect(try await account.syncBiologicalSex(from: source) == .unchanged(.female))
        try await account.engine.drain()
        let patches = await harness.backend.requests(.updatePhysical)
        #expect(patches == [.updatePhysical(PhysicalPatch(biologicalSex: .female))])
        let sex = try await account.cached().profile?.biologicalSex
        #expect(sex == SourcedBiologicalSex(value: .female, source: .health, recordedAt: start))
    }

    @Test(arguments: [
        (HealthValue<BiologicalSex>.notSet, BiologicalSexSyncResult.notSet),
        (.unknown("HKBiologicalSexIntersex\u{1B}[2J"), .unknown("HKBiologicalSexIntersex\u{1B}[2J")),
        (.missing, .missing),
    ])
    func notSetOrUnknownNeverOverwritesAKnownValue(value: HealthValue<BiologicalSex>, expected: BiologicalSexSyncResult)
        async throws
    {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        _ = try await account.applyBiologicalSex(.value(.male), recordedAt: nil)
        try await account.engine.drain()
        #expect(try await account.applyBiologicalSex(value, recordedAt: nil) == expected)
        #expect(try await account.cached().profile?.biologicalSex?.value == .male)
        #expect(try await account.cached().outbox.isEmpty)
        #expect(!expected.description.contains("\u{1B}"))
    }

    @Test func statusNamesPendingAndRejectedChanges() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        try await account.apply(.measurement(.height, 180.5))
        try await account.updateMetadata(name: "Offline")
        _ = try await account.engine.drain()
        let status = try await account.status()
        #expect(status.pendingChanges == 2)
        #expect(status.rejectedChanges == 0)
        #expect(status.changes.map(\.summary).contains("profile: name"))
        #expect(status.changes.contains { $0.summary.hasPrefix("height history: 180.5 cm on ") })
        #expect(status.signedIn)
    }
}
