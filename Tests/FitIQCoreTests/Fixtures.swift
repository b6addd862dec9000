import FitIQCore
import FitIQTestBasics
import Foundation

/// A cached account state as after the first pull of `TestHarness.serverProfile`.
func syncedState(now: Date = Date(timeIntervalSince1970: 1_790_000_000)) -> AccountState {
    var state = AccountState.empty
    state.mergeServerProfile(
        TestHarness.serverProfile, identity: AccountIdentity(userId: "u1", email: "jane@example.com"), now: now)
    return state
}

let start = Date(timeIntervalSince1970: 1_790_000_000)
let me = UUID()
let someoneElse = UUID()

extension AccountState {
    /// The operation the outbox sends next for `me`, or `nil`.
    func nextOperation(at now: Date = start) -> SyncOperation? {
        if case .send(let operation) = nextAction(for: me, now: now) { return operation }
        return nil
    }

    /// Sends the next operation and records `outcome`.
    @discardableResult
    mutating func deliverNext(_ outcome: SyncOutcome = .delivered, at now: Date = start) -> SyncOperation? {
        guard let operation = nextOperation(at: now) else { return nil }
        begin(operation, owner: me, now: now)
        var outcome = outcome
        if case .logProgress = operation, outcome == .delivered { outcome = .logged(serverId: UUID().uuidString) }
        finish(operation, outcome: outcome, now: now, random: 0.5)
        return operation
    }
}

extension Account {
    /// Logs a height for each of the first `days` days of September 2026: 160.1, 160.2, … cm.
    func logSeptemberHeights(_ days: Int) async throws {
        for day in 1...days {
            try await apply(
                .measurement(.height, 160 + Double(day) / 10, day: CalendarDate(year: 2026, month: 9, day: day)))
        }
    }
}
