import FitIQCore
import Synchronization

/// The account the editor works on (`nil` until signed in), shared by its parts; those that follow
/// the account (the cache watch) are told when it changes.
final class AccountSlot: Sendable {
    private struct State {
        var account: Account?
        var followers: [Int: AsyncStream<Account>.Continuation] = [:]
        var nextFollower = 0
    }

    private let state: Mutex<State>

    init(_ account: Account?) {
        state = Mutex(State(account: account))
    }

    /// The account now.
    var account: Account? { state.withLock { $0.account } }

    /// Makes `account` the editor's account and tells the followers.
    func set(_ account: Account) {
        // Yielded under the lock: followers see the accounts in the order they were set.
        state.withLock { state in
            state.account = account
            for follower in state.followers.values { follower.yield(account) }
        }
    }

    /// The account now (if any) and each account set later; only the newest one is kept for a slow
    /// reader. Ends when the reading task is cancelled.
    func accounts() -> AsyncStream<Account> {
        let (stream, continuation) = AsyncStream.makeStream(of: Account.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            let id = state.nextFollower
            state.nextFollower += 1
            state.followers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.followers.removeValue(forKey: id) }
            }
            if let account = state.account { continuation.yield(account) }
        }
        return stream
    }
}
