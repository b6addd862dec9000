import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Several accounts signed in side by side on one machine: each keeps its own cache, outbox and
/// tokens, and a change goes out only with its own account's token.
struct SeveralAccountsTests {
    /// Two users of one server, each answered by a backend that accepts only its own user's tokens:
    /// a change sent with the other account's token would be refused (401), not delivered.
    struct Family {
        let clock = ManualClock()
        let directory = InMemoryAccountDirectory()
        let ada: InMemoryBackend
        let bob: InMemoryBackend
        let adaAccounts: Accounts
        let bobAccounts: Accounts

        init() {
            let clock = self.clock
            ada = InMemoryBackend(
                userId: "ada-id", email: "ada@example.com", password: "ada secret",
                profile: Self.profile(userId: "ada-id", email: "ada@example.com", name: "Ada"),
                now: { clock.date() })
            bob = InMemoryBackend(
                userId: "bob-id", email: "bob@example.com", password: "bob secret",
                profile: Self.profile(userId: "bob-id", email: "bob@example.com", name: "Bob"),
                now: { clock.date() })
            let environment = SyncEnvironment(clock: clock, random: { 0.5 }, timeZone: .utc)
            adaAccounts = Accounts(
                server: TestHarness.server, apiKey: nil, directory: directory,
                backend: Backend(auth: ada, profiles: ada, progress: ada), environment: environment)
            bobAccounts = Accounts(
                server: TestHarness.server, apiKey: nil, directory: directory,
                backend: Backend(auth: bob, profiles: bob, progress: bob), environment: environment)
        }

        static func profile(userId: String, email: String, name: String) -> RemoteProfile {
            RemoteProfile(
                userId: userId, profileId: "\(userId)-profile", email: email,
                metadata: ProfileMetadata(name: name, bio: nil, preferredUnitSystem: .metric, languageCode: "en"),
                dateOfBirth: CalendarDate(year: 1983, month: 7, day: 20), heightCm: 170,
                createdAt: Date(timeIntervalSince1970: 1_700_000_000),
                updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    @Test func eachChangeGoesOutWithItsOwnAccountsTokenOnly() async throws {
        let family = Family()
        let ada = try await family.adaAccounts.signIn(email: "ada@example.com", password: "ada secret").account
        let bob = try await family.bobAccounts.signIn(email: "bob@example.com", password: "bob secret").account
        #expect(ada.key != bob.key)
        await family.ada.clearRequests()
        await family.bob.clearRequests()

        // Both saved before either is sent: two outboxes, one each.
        try await ada.apply(.measurement(.weight, 71.5))
        try await bob.apply(.measurement(.height, 152))
        #expect(try await ada.status().pendingChanges == 1)
        #expect(try await bob.status().pendingChanges == 1)
        #expect(try await ada.deliver().isSynced)
        #expect(try await bob.deliver().isSynced)

        // What each server received since sign-in (which sent the profile's height): its own change only.
        func posted(_ backend: InMemoryBackend) async -> [String] {
            await backend.requests(.logProgress).compactMap {
                if case .logProgress(let entry) = $0 { entry.type } else { nil }
            }
        }
        #expect(await posted(family.ada) == ["weight"])
        #expect(await posted(family.bob) == ["height"])
        let adaHeld = await family.ada.entries
        let bobHeld = await family.bob.entries
        #expect(adaHeld.filter { $0.type == "weight" }.map(\.quantity) == [71.5], "\(adaHeld)")
        #expect(bobHeld.filter { $0.type == "weight" }.isEmpty, "\(bobHeld)")
        #expect(bobHeld.filter { $0.type == "height" }.map(\.quantity).contains(152), "\(bobHeld)")
        // Neither backend refused a token: none of the other account's reached it.
        #expect(await family.ada.requests(.refresh).isEmpty)
        #expect(await family.bob.requests(.refresh).isEmpty)
        let adaSession = try await family.directory.sessionStore(for: ada.key).load()
        let bobSession = try await family.directory.sessionStore(for: bob.key).load()
        #expect(adaSession?.tokens != nil && adaSession?.tokens != bobSession?.tokens)
    }

    @Test func anAccountIsFoundByEmailAndAnUnknownOneNamesThoseThereAre() async throws {
        let family = Family()
        let ada = try await family.adaAccounts.signIn(email: "ada@example.com", password: "ada secret").account
        let bob = try await family.bobAccounts.signIn(email: "bob@example.com", password: "bob secret").account
        #expect(try await family.adaAccounts.known().map(\.email) == ["ada@example.com", "bob@example.com"])
        // The last signed in is the default; either is found by its email, in any case.
        #expect(try await family.adaAccounts.current()?.key == bob.key)
        #expect(try await family.adaAccounts.account(email: "ADA@example.com").key == ada.key)
        try await family.adaAccounts.makeDefault(ada)
        #expect(try await family.adaAccounts.current()?.key == ada.key)
        await #expect(
            throws: AccountError.unknownAccount(
                "cy@example.com",
                known: [
                    KnownAccount(key: ada.key, email: "ada@example.com"),
                    KnownAccount(key: bob.key, email: "bob@example.com"),
                ])
        ) {
            try await family.adaAccounts.account(email: "cy@example.com")
        }
    }

    @Test func signingOneAccountOutKeepsTheOthersPendingChange() async throws {
        let family = Family()
        let ada = try await family.adaAccounts.signIn(email: "ada@example.com", password: "ada secret").account
        let bob = try await family.bobAccounts.signIn(email: "bob@example.com", password: "bob secret").account
        await family.bob.setOffline(true)
        try await bob.apply(.measurement(.height, 152))
        try await family.adaAccounts.signOut(ada, discardPending: false)
        #expect(try await family.adaAccounts.known().map(\.email) == ["bob@example.com"])
        #expect(try await bob.status().pendingChanges == 1)
        await family.bob.setOffline(false)
        #expect(try await bob.deliver().isSynced)
        let bobHeld = await family.bob.entries
        #expect(bobHeld.filter { $0.type == "height" }.map(\.quantity).contains(152), "\(bobHeld)")
    }
}
