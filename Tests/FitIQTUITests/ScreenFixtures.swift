import FitIQCore
import FitIQTestBasics
import Foundation

@testable import FitIQTUI

let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18

/// A profile screen state with a synced profile, biological sex from the health source and some history.
func profileState(
    width: Int = 80, height: Int = 24, bio: String = "Trail runner", name: String = "Jane Doe",
    sex: SourcedBiologicalSex? = SourcedBiologicalSex(value: .female, source: .health)
) -> AppState {
    var state = AppState(
        screen: .profile, size: (width, height), now: fixedNow, timeZone: .utc, server: "https://api.fitiq.test",
        account: AccountView(
            email: "jane@example.com", server: "https://api.fitiq.test",
            state: fixtureAccount(bio: bio, name: name, sex: sex)))
    state.connection = .online
    return state
}

/// The account of ``profileState(width:height:bio:name:sex:)``, to change before showing it (``show(_:in:)``).
func fixtureAccount(
    bio: String = "Trail runner", name: String = "Jane Doe",
    sex: SourcedBiologicalSex? = SourcedBiologicalSex(value: .female, source: .health)
) -> AccountState {
    var account = AccountState.empty
    var remote = TestHarness.serverProfile
    remote.metadata.name = name
    remote.metadata.bio = bio
    account.mergeServerProfile(remote, identity: AccountIdentity(userId: "u", email: "jane@example.com"), now: fixedNow)
    if let sex, var profile = account.profile {
        var physical = profile.physical
        physical.biologicalSex = sex
        profile = profile.updatingPhysical(physical)
        account.profile = profile
    }
    account.history.entries = (0..<12).map { index in
        ProgressEntry(
            serverId: "e\(index)", quantity: 170 + Double(index % 4) / 2,
            loggedAt: fixedNow.addingTimeInterval(-Double(index) * 30 * 86_400), source: .server)
    }
    return account
}

/// Shows `account` on `state`'s screen, as the editor shows the view the core publishes.
func show(_ account: AccountState, in state: inout AppState) {
    state.account = AccountView(email: "jane@example.com", server: "https://api.fitiq.test", state: account)
}

/// Renders `state` at its size.
func screen(_ state: AppState) -> CellBuffer {
    var buffer = CellBuffer(width: state.size.width, height: state.size.height)
    _ = render(state, into: &buffer)
    return buffer
}

/// Feeds keys through `update`, collecting effects.
@discardableResult
func press(_ keys: [Key], _ state: inout AppState) -> [Effect] {
    keys.flatMap { update(&state, .input(.key($0))) }
}

func type(_ text: String) -> [Key] { text.map { .character($0) } }
