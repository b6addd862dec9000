import FitIQCore
import Foundation
import Synchronization

/// Everything a use-case test needs: a manual clock, an in-memory backend and in-memory stores.
public struct TestHarness: Sendable {
    public static let server = "https://api.fitiq.test"
    public let clock: ManualClock
    public let backend: InMemoryBackend
    public let directory: InMemoryAccountDirectory
    public let environment: SyncEnvironment
    public let accounts: Accounts

    /// A harness whose backend holds `profile` (none: the server answers 404 until one is created).
    public init(
        profile: RemoteProfile? = TestHarness.serverProfile, random: Double = 0.5, timeZone: LocalZone = .utc,
        progressPostsInFlight: Int = ProgressWindow.defaultLimit
    ) {
        let clock = ManualClock()
        self.clock = clock
        backend = InMemoryBackend(profile: profile, now: { clock.date() })
        directory = InMemoryAccountDirectory()
        var environment = SyncEnvironment(clock: clock, random: { random }, timeZone: timeZone)
        environment.progressPostsInFlight = progressPostsInFlight
        self.environment = environment
        accounts = Accounts(
            server: Self.server, apiKey: nil, directory: directory,
            backend: Backend(auth: backend, profiles: backend, progress: backend), environment: environment)
    }

    /// A server profile with metadata, height and date of birth.
    public static let serverProfile = RemoteProfile(
        userId: "6f1c1b52-8b5e-4a54-9d3c-0d6d7e1f2a10", profileId: "a5b7f0c2-3a4e-4f6b-8d9e-1c2b3a4d5e6f",
        email: "jane@example.com",
        metadata: ProfileMetadata(name: "Jane Doe", bio: "Runner", preferredUnitSystem: .metric, languageCode: "en"),
        dateOfBirth: CalendarDate(year: 1983, month: 7, day: 20), heightCm: 170,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))

    /// Signs in as the backend's user and forgets the requests made so far.
    public func signedIn(name: String? = nil) async throws -> Account {
        let signedIn = try await accounts.signIn(
            email: backend.email, password: await backend.password, nameForNewProfile: name)
        if let error = signedIn.profileError { throw error }
        await backend.clearRequests()
        return signedIn.account
    }

    /// Signs in as ``signedIn(name:)`` does and syncs once: the account holds the server's profile.
    public func synced(name: String? = nil) async throws -> Account {
        let account = try await signedIn(name: name)
        try await account.syncNow()
        return account
    }

    /// The in-memory store of `account`.
    public func store(of account: Account) -> InMemoryProfileStore {
        directory.inMemoryProfileStore(for: account.key)
    }

    /// The in-memory session store of `account`.
    public func sessions(of account: Account) -> InMemorySessionStore {
        directory.inMemorySessionStore(for: account.key)
    }
}

/// A health source that returns a fixed snapshot and counts its readings.
public final class FixedHealthSource: HealthSource {
    public let snapshot: HealthSnapshot
    private let readings = Mutex(0)

    public init(_ snapshot: HealthSnapshot) {
        self.snapshot = snapshot
    }

    /// How often the source was read.
    public var readCount: Int { readings.withLock { $0 } }

    public func read(progress: @escaping @Sendable (HealthReadProgress) -> Void) async throws -> HealthSnapshot {
        readings.withLock { $0 += 1 }
        progress(HealthReadProgress(bytesRead: 1, totalBytes: 1))
        return snapshot
    }
}

extension LocalZone {
    /// The local time of Foundation's `zone` (tests only: named zones need ICU, which the client never links).
    public init(_ zone: TimeZone) {
        self.init { zone.secondsFromGMT(for: $0) }
    }
}

extension Account {
    /// What `apply(.importHealth(snapshot, fileName:))` imported: the tests' way through the one way in.
    public func importingHealth(_ snapshot: HealthSnapshot, fileName: String? = nil) async throws -> HealthImportResult
    {
        let applied = try await apply(.importHealth(snapshot, fileName: fileName))
        guard case .healthImported(let result) = applied.outcome else {
            preconditionFailure("an Apple Health import's outcome is healthImported: \(applied.outcome)")
        }
        return result
    }
}
