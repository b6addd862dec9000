import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQCore

/// Sign in, register and sign out.
struct AccountsTests {
    @Test func signingInLoadsTheProfileAndRemembersTheAccount() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        let state = try await account.cached()
        #expect(state.profile?.name == "Jane Doe")
        #expect(state.profile?.dateOfBirth?.description == "1983-07-20")
        #expect(account.key == AccountKey(server: TestHarness.server, userId: harness.backend.userId))
        #expect(try await harness.accounts.current()?.key == account.key)
    }

    @Test func signingInWithoutAProfileCreatesItWithTheGivenName() async throws {
        let harness = TestHarness(profile: nil)
        let account = try await harness.signedIn(name: "Given Name")
        #expect(await harness.backend.profile?.metadata.name == "Given Name")
        #expect(try await account.cached().profile?.name == "Given Name")
    }

    @Test func signingInWithoutAProfileOrANameUsesTheEmailsLocalPart() async throws {
        let harness = TestHarness(profile: nil)
        _ = try await harness.signedIn()
        #expect(await harness.backend.profile?.metadata.name == "jane")
    }

    @Test func aWrongPasswordShowsTheServersMessage() async throws {
        let harness = TestHarness()
        await #expect(throws: RemoteError.unauthorized(message: "Invalid email or password")) {
            try await harness.accounts.signIn(email: harness.backend.email, password: "wrong")
        }
        #expect(try await harness.accounts.current() == nil)
    }

    @Test func registrationRefusesUnder13WithoutAskingTheServer() async throws {
        let harness = TestHarness(profile: nil)
        let today = CalendarDate(containing: harness.clock.date(), in: .utc)
        let twelve = CalendarDate(year: today.year - 12, month: today.month, day: today.day) ?? today
        await #expect(throws: ValidationError.self) {
            try await harness.accounts.register(
                email: "kid@example.com", password: "secret", name: "Kid", dateOfBirth: twelve.description)
        }
        #expect(await harness.backend.requests.isEmpty)
    }

    @Test func registrationCreatesTheProfileWithTheRegisteredName() async throws {
        let harness = TestHarness(profile: nil)
        let signedIn = try await harness.accounts.register(
            email: "new@example.com", password: "secret", name: "New Person", dateOfBirth: "1990-01-31")
        #expect(signedIn.profileError == nil)
        #expect(await harness.backend.profile?.metadata.name == "New Person")
    }

    @Test func signOutRefusesWhileChangesArePendingAndNamesThem() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        await harness.backend.setOffline(true)
        try await account.updateMetadata(bio: "unsent")
        await #expect {
            // No wait for retries: the manual clock would never move.
            try await harness.accounts.signOut(account, discardPending: false, syncFor: 0)
        } throws: { error in
            guard case AccountError.pendingChanges(let changes) = error else { return false }
            return changes.map(\.summary) == ["profile: bio"] && String(describing: error).contains("--discard-pending")
        }
        #expect(harness.directory.erasedAccounts.isEmpty)
        try await harness.accounts.signOut(account, discardPending: true)
        #expect(harness.directory.erasedAccounts == [account.key])
        #expect(try await harness.accounts.current() == nil)
    }

    @Test func signOutSyncsFirst() async throws {
        let harness = TestHarness()
        let account = try await harness.signedIn()
        try await account.updateMetadata(bio: "sent on the way out")
        try await harness.accounts.signOut(account, discardPending: false)
        #expect(await harness.backend.profile?.metadata.bio == "sent on the way out")
        #expect(harness.directory.erasedAccounts == [account.key])
    }
}
