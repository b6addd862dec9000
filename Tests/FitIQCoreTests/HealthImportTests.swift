import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// The health import use case against the in-memory backend.
struct HealthImportTests {
    /// Three samples in the order an export may hold them: the newest is not the last.
    static let samples = [
        MeasurementSample(.height, value: 171.2, measuredAt: start.addingTimeInterval(-86_400 * 10)),
        MeasurementSample(.height, value: 172.4, measuredAt: start.addingTimeInterval(-3_600)),
        MeasurementSample(.height, value: 170.6, measuredAt: start.addingTimeInterval(-86_400 * 200)),
    ]

    static let export = HealthSnapshot(
        biologicalSex: .value(.female), dateOfBirth: .value(birthday(20)),
        samples: samples, exportedAt: start.addingTimeInterval(-60))

    @Test func oneImportPostsEachSampleAndPatchesTheNewestWithTheSex() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let result = try await account.importingHealth(Self.export)
        #expect(result.biologicalSex == BiologicalSexSyncResult.queued(.female))
        #expect(result[.height].found == 3)
        #expect(result[.height].newEntries.count == 3)
        #expect(result.currentHeight == 172.4)
        #expect(!result.dateOfBirthDiffers)

        try await account.engine.drain()
        let posts = await harness.backend.requests(.logProgress).compactMap { request -> Date? in
            guard case .logProgress(let entry) = request else { return nil }
            return entry.loggedAt
        }
        #expect(Set(posts) == Set(Self.samples.map(\.measuredAt)))
        #expect(posts.count == 3)
        // Height and sex travel in one PATCH; the newest sample adds no extra progress entry.
        #expect(
            await harness.backend.requests(.updatePhysical) == [
                .updatePhysical(PhysicalPatch(heightCm: 172.4, biologicalSex: .female))
            ])
        let profile = try #require(try await account.cached().profile)
        #expect(profile.biologicalSex == SourcedBiologicalSex(value: .female, source: .health, recordedAt: start - 60))
        #expect(profile.healthSync.hasPerformedInitialHealthSync)
        #expect(profile.healthSync.lastHealthSyncAt == harness.clock.date())
    }

    @Test func importingTheSameExportAgainSendsNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        _ = try await account.importingHealth(Self.export)
        try await account.engine.drain()
        await harness.backend.clearRequests()

        let again = try await account.importingHealth(Self.export)
        #expect(again.biologicalSex == BiologicalSexSyncResult.unchanged(.female))
        #expect(again[.height].newEntries.isEmpty)
        #expect(again.currentHeight == nil)
        #expect(try await account.cached().outbox.isEmpty)
        // Nothing new in the export: the server was not even asked.
        #expect(await harness.backend.requests(.listProgress).isEmpty)
        try await account.engine.drain()
        #expect(await harness.backend.requests(.logProgress).isEmpty)
        #expect(await harness.backend.requests(.updatePhysical).isEmpty)
        #expect(try await account.history(of: .height, refresh: true).filter { $0.source == .health }.count == 3)
    }

    @Test func samplesTheServerAlreadyHoldsAreNotPostedAgain() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        // Imported earlier from another machine: the server has two of the three samples.
        await harness.backend.setEntries(
            Self.samples.prefix(2).enumerated().map { index, sample in
                RemoteProgressEntry(
                    id: "server-\(index)", type: "height", quantity: sample.value, loggedAt: sample.measuredAt)
            })
        let result = try await account.importingHealth(Self.export)
        #expect(result[.height].newEntries.count == 1)
        try await account.engine.drain()
        #expect(await harness.backend.entries.count == 3)
    }

    @Test func anOfflineImportIsMatchedWithTheServersCopyBeforePosting() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        let result = try await account.importingHealth(Self.export)
        #expect(result[.height].newEntries.count == 3)
        // Meanwhile another machine posted the same samples.
        await harness.backend.setEntries(
            Self.samples.enumerated().map { index, sample in
                RemoteProgressEntry(
                    id: "server-\(index)", type: "height", quantity: sample.value, loggedAt: sample.measuredAt)
            })
        await harness.backend.setOffline(false)
        try await account.engine.refreshHistory(full: false)
        #expect(try await account.cached().outbox.progress.isEmpty)
        try await account.engine.drain()
        #expect(await harness.backend.requests(.logProgress).isEmpty)
        #expect(await harness.backend.entries.count == 3)
    }

    @Test func olderSamplesNeverReplaceANewerCurrentHeight() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.logHeight(168)
        let result = try await account.importingHealth(Self.export)
        #expect(result.currentHeight == nil)
        #expect(result[.height].newEntries.count == 3)
        #expect(try await account.cached().profile?.physical.heightCm == 168)
    }

    @Test func aDifferentHealthDateOfBirthIsKeptBesideTheProfilesAndNeverSent() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        var export = Self.export
        export.dateOfBirth = .value(birthday(21))
        let result = try await account.importingHealth(export)
        #expect(result.dateOfBirthDiffers)
        let profile = try #require(try await account.cached().profile)
        #expect(profile.healthSync.healthDateOfBirth == birthday(21))
        #expect(profile.physical.dateOfBirth == birthday(20))
    }

    @Test func notSetKeepsTheKnownSexWhileHeightsStillArrive() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        _ = try await account.applyBiologicalSex(HealthValue.value(BiologicalSex.male), recordedAt: nil)
        try await account.engine.drain()
        var export = Self.export
        export.biologicalSex = HealthValue.notSet
        export.samples.append(MeasurementSample(.height, value: 1_000, measuredAt: start - 5))
        let result = try await account.importingHealth(export)
        #expect(result.biologicalSex == BiologicalSexSyncResult.notSet)
        #expect(result[.height].outOfRange == 1)
        #expect(result[.height].newEntries.count == 3)
        #expect(try await account.cached().profile?.biologicalSex?.value == .male)
        #expect(try await account.cached().pending.physicalPatch == PhysicalPatch(heightCm: 172.4))
    }

    /// An import cancelled (the editor's Esc) before it saves changes nothing.
    @Test func aCancelledImportChangesNothing() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let before = try await account.cached()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await account.apply(.importHealth(Self.export))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await account.cached().outbox == before.outbox)
        #expect(try await account.cached().history == before.history)
        #expect(try await account.cached().profile?.healthSync == before.profile?.healthSync)
    }
}

/// A date in July 1983 (the test profile's date of birth is the 20th).
func birthday(_ day: Int) -> CalendarDate {
    guard let date = CalendarDate(year: 1983, month: 7, day: day) else { preconditionFailure("not a date: \(day)") }
    return date
}
