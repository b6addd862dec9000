import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// The health source stays true: when the server holds no biological sex, or another one, the health
/// value is sent again, and "synced" is said only when the server has it.
struct HealthTruthTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000)

    /// An account whose health import set `other`, synced.
    func synced() async throws -> (TestHarness, Account) {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let source = FixedHealthSource(HealthSnapshot(biologicalSex: .value(.other), exportedAt: Self.start))
        #expect(try await account.syncBiologicalSex(from: source) == .queued(.other))
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.profile?.biologicalSex == .other)
        await harness.backend.clearRequests()
        return (harness, account)
    }

    @Test(arguments: [BiologicalSex?.none, .male])
    func aServerThatLostOrChangedTheValueGetsTheHealthValueAgain(server: BiologicalSex?) async throws {
        let (harness, account) = try await synced()
        // The server lost it (a recreated profile: null) or holds another value.
        var profile = try #require(await harness.backend.profile)
        profile.biologicalSex = server
        await harness.backend.setProfile(profile)

        let report = try await account.syncNow()

        #expect(
            await harness.backend.requests(.updatePhysical) == [.updatePhysical(PhysicalPatch(biologicalSex: .other))])
        #expect(await harness.backend.profile?.biologicalSex == .other)
        #expect(report.isSynced)
        let local = try await account.cached().profile?.biologicalSex
        #expect(local?.value == .other && local?.source == .health)
    }

    @Test func aServerThatDoesNotKeepTheValueIsNeverCalledSynced() async throws {
        let (harness, account) = try await synced()
        var profile = try #require(await harness.backend.profile)
        profile.biologicalSex = nil
        await harness.backend.setProfile(profile)
        // Every write is answered, but the server keeps no sex (as the production server after a reset).
        await harness.backend.forgetBiologicalSex(true)

        let report = try await account.syncNow()

        #expect(!report.isSynced)
        #expect(report.pending == 1)
        #expect(await harness.backend.profile?.biologicalSex == nil)
    }
}

/// The last import is remembered with its file's name.
struct ImportRecordTests {
    @Test func anImportRecordsWhenAndFromWhichFile() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        _ = try await account.importingHealth(HealthSnapshot(biologicalSex: .value(.female)), fileName: "export.zip")
        let health = try #require(try await account.cached().profile?.healthSync)
        #expect(health.lastImportFileName == "export.zip")
        #expect(health.lastHealthSyncAt == harness.clock.date())
    }
}

/// Rejected changes handled from a script (`sync --retry-rejected`, `--discard-rejected`).
struct RejectedChangesTests {
    @Test func retryingSendsARejectedChangeAgain() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.inject(
            .fail(.rejected(status: 400, message: "Bio is not allowed")), into: .updateMetadata)
        try await account.updateMetadata(bio: "Refused once")
        #expect(try await account.engine.drain().rejected == 1)

        #expect(try await account.retryRejected().map(\.summary) == ["profile: bio"])
        #expect(try await account.syncNow().isSynced)
        #expect(await harness.backend.profile?.metadata.bio == "Refused once")
    }

    @Test func discardingRestoresTheServersValuesAndNamesTheFields() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.inject(.fail(.rejected(status: 400, message: "No")), into: .updateMetadata)
        try await account.updateMetadata(name: "Refused Name", bio: "Refused bio")
        #expect(try await account.engine.drain().rejected == 1)

        let dropped = try await account.discardRejected()

        #expect(dropped.map(\.summary) == ["profile: name, bio"])
        let profile = try await account.cached().profile
        #expect(profile?.name == TestHarness.serverProfile.metadata.name)
        #expect(profile?.bio == TestHarness.serverProfile.metadata.bio)
        #expect(try await account.cached().pending.count == 0)
        #expect(try await account.discardRejected() == [])
    }
}
