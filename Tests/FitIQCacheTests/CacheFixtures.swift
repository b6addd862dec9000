import FitIQCore
import FitIQLocalization
import Foundation

/// Values used across the cache tests.
enum CacheFixtures {
    static let account = AccountKey(server: "https://api.example.com", userId: "user-1")

    static func profile(name: String = "Ada") -> UserProfile {
        UserProfile(
            identity: AccountIdentity(userId: "user-1", email: "ada@example.com"),
            metadata: ProfileMetadata(name: name))
    }

    static func state(name: String) -> AccountState {
        AccountState(profile: profile(name: name))
    }

    /// A state using every field: full profile and server copy, all three outbox queues with delivery
    /// bookkeeping, history, sync times, and dates with sub-millisecond fractions.
    static func richState() throws -> AccountState {
        let measured = Date(timeIntervalSinceReferenceDate: 754_012_345.123_456_7)
        let now = Date()
        let profile = UserProfile(
            identity: AccountIdentity(userId: "user-1", email: "ada@example.com", profileId: "profile-9"),
            metadata: ProfileMetadata(
                name: "Ada Lovelace 👩‍💻", bio: "Counts \"things\"\nand writes\\notes", preferredUnitSystem: .imperial,
                languageCode: "pt-BR"),
            physical: PhysicalProfile(
                heightCm: 170.2, heightMeasuredAt: measured, dateOfBirth: CalendarDate(year: 1983, month: 7, day: 20),
                biologicalSex: SourcedBiologicalSex(value: .female, source: .account, recordedAt: now)),
            healthSync: HealthSyncState(
                hasPerformedInitialHealthSync: true, lastHealthSyncAt: now.addingTimeInterval(-0.000_123),
                healthDateOfBirth: CalendarDate(year: 1983, month: 7, day: 21)),
            createdAt: Date(timeIntervalSince1970: 1_600_000_000.987_654), updatedAt: now)
        var state = AccountState(
            profile: profile,
            server: ServerRecord(
                copy: RemoteProfile(
                    userId: "user-1", profileId: "profile-9", email: "ada@example.com",
                    metadata: ProfileMetadata(name: "Ada", bio: "", preferredUnitSystem: .metric, languageCode: "en"),
                    dateOfBirth: CalendarDate(year: 1983, month: 7, day: 20), heightCm: 169.9, biologicalSex: .female,
                    createdAt: measured, updatedAt: now),
                lastSyncAt: now, historyCheckedAt: measured),
            history: [
                ProgressEntry(serverId: "p-1", quantity: 169.9, loggedAt: measured, notes: "clinic", source: .server)
            ])
        state.editMetadata(
            ProfileMetadata(name: "Ada B.", bio: nil, preferredUnitSystem: .metric, languageCode: "es-419"), now: now)
        state.record(.height, 171.45, measuredAt: now, source: .manual, notes: "morning")
        state.record(.height, 160, measuredAt: measured.addingTimeInterval(-86_400), source: .health)
        state.applyHealthBiologicalSex(.value(.male), recordedAt: measured)
        state.outbox.metadata?.delivery.attempts = 3
        state.outbox.metadata?.delivery.notBefore = now.addingTimeInterval(12.345_678)
        state.outbox.metadata?.delivery.lastProblem = .remote(
            .unreachable(message: .timedOut(reason: "5 s")))
        state.outbox.physical?.delivery.rejection = "height_cm: must be at most 300"
        state.outbox.metadata?.conflicts = [.name]
        state.outbox.physical?.heightConflict = true
        state.server.acknowledged = ["bio": ["Counts"], "height": ["168.0", "169.9"]]
        state.outbox.progress[0].sendAttempted = true
        state.outbox.progress[0].delivery.claim = try claim(until: now.addingTimeInterval(30))
        // A removal sent once without an answer, and one never sent.
        for (serverId, sent) in [("p-0", true), ("p-00", false)] {
            state.outbox.deletions.append(
                ProgressDeletion(
                    removing: ProgressEntry(
                        serverId: serverId, quantity: 168, loggedAt: measured.addingTimeInterval(-172_800),
                        source: .server),
                    serverId: serverId, changeId: UUID(), sendAttempted: sent))
        }
        return state
    }

    /// `Claim` has no public initialiser; build one the way a file would hold it.
    private static func claim(until: Date) throws -> Claim {
        let json = #"{"owner": "\#(UUID().uuidString)", "until": \#(until.timeIntervalSinceReferenceDate)}"#
        return try JSONDecoder().decode(Claim.self, from: Data(json.utf8))
    }
}
