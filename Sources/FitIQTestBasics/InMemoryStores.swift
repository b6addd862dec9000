import FitIQCore
import Foundation
import Synchronization

/// A ``ProfileStore`` in memory: seedable, and counting the saves it performs.
public actor InMemoryProfileStore: ProfileStore {
    /// The stored state.
    public private(set) var state: AccountState
    /// How many updates changed the state (and so would have written the file).
    public private(set) var saveCount = 0
    /// How many times ``erase()`` ran.
    public private(set) var eraseCount = 0
    private var failure: (any Error)?

    /// Starts with `state` (nothing cached by default).
    public init(_ state: AccountState = .empty) {
        self.state = state
    }

    /// Replaces the stored state without counting a save (as another process's write would: the
    /// revision changes).
    public func seed(_ state: AccountState) {
        self.state = state
        writes += 1
    }

    /// Every write so far, saves and seeds: what ``revision()`` reports.
    private var writes = 0

    /// Makes every later `load`/`update` throw `error`, or work again with `nil`.
    public func fail(with error: (any Error)?) {
        failure = error
    }

    public func load() throws -> AccountState {
        if let failure { throw failure }
        return state
    }

    public func update<T: Sendable>(_ change: @Sendable (inout AccountState) throws -> T) async throws -> T {
        if let failure { throw failure }
        // Applied only once released: a write still under way.
        let wasHeld = await updates.pass()
        defer { if wasHeld { heldUpdatesApplied += 1 } }
        var updated = state
        let result = try change(&updated)
        if updated != state {
            state = updated
            saveCount += 1
            writes += 1
        }
        return result
    }

    /// How many held updates have been applied since.
    public private(set) var heldUpdatesApplied = 0
    private let updates = CallHold()
    private let goalsReads = CallHold()

    /// Makes the next ``update(_:)`` wait, before it changes anything, until ``releaseUpdate()``.
    public func holdNextUpdate() { updates.holdNext() }

    /// Returns once an ``update(_:)`` is held.
    public func waitUntilUpdateIsHeld() async { await updates.waitUntilHeld() }

    /// Lets the held ``update(_:)`` go on.
    public func releaseUpdate() { updates.release() }

    /// The stored goals.
    public private(set) var storedGoals = Goals()

    public func goals() async throws -> Goals {
        if let failure { throw failure }
        let read = storedGoals
        // Returns what it read only once released: a slow read that others overtake.
        await goalsReads.pass()
        return read
    }

    /// Makes the next ``goals()`` read the goals at once and return them only after
    /// ``releaseGoalsRead()``; other calls go on meanwhile.
    public func holdNextGoalsRead() { goalsReads.holdNext() }

    /// Returns once a ``goals()`` read is held.
    public func waitUntilGoalsReadIsHeld() async { await goalsReads.waitUntilHeld() }

    /// Lets the held ``goals()`` read return what it read.
    public func releaseGoalsRead() { goalsReads.release() }

    public func updateGoals<T: Sendable>(_ change: @Sendable (inout Goals) throws -> T) throws -> T {
        if let failure { throw failure }
        var goals = storedGoals
        let result = try change(&goals)
        storedGoals = goals
        return result
    }

    public func erase() {
        state = .empty
        storedGoals = Goals()
        eraseCount += 1
        writes += 1
    }

    public func revision() -> StoreRevision? {
        StoreRevision([Int64(writes)])
    }
}

/// A ``SessionStore`` in memory; ``exchange(_:)`` bodies run one at a time, like under the account lock.
public actor InMemorySessionStore: SessionStore {
    /// The stored session.
    public private(set) var session: Session?
    /// How many exchanges ran.
    public private(set) var exchangeCount = 0
    private var isExchanging = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Starts with `session`.
    public init(_ session: Session? = nil) {
        self.session = session
    }

    public func load() -> Session? { session }

    public func save(_ session: Session) {
        self.session = session
    }

    public func delete() {
        session = nil
    }

    public func exchange(_ body: @Sendable (Session?) async throws -> Session?) async throws -> Session? {
        // The actor is re-entered while `body` awaits; queue the others as the account lock would.
        if isExchanging { await withCheckedContinuation { waiters.append($0) } }
        isExchanging = true
        defer {
            if waiters.isEmpty { isExchanging = false } else { waiters.removeFirst().resume() }
        }
        exchangeCount += 1
        let next = try await body(session)
        session = next
        return next
    }
}

/// An ``AccountDirectory`` in memory: one store pair per account, kept for the directory's lifetime.
public final class InMemoryAccountDirectory: AccountDirectory {
    private struct State {
        var profiles: [AccountKey: InMemoryProfileStore] = [:]
        var sessions: [AccountKey: InMemorySessionStore] = [:]
        var last: AccountKey?
        var byServer: [String: String] = [:]
        var erased: [AccountKey] = []
    }

    private let state = Mutex(State())

    /// Starts with no accounts.
    public init() {}

    /// The profile store of `account` (created on first use), to seed or inspect it.
    public func inMemoryProfileStore(for account: AccountKey) -> InMemoryProfileStore {
        store(\.profiles, of: account) { InMemoryProfileStore() }
    }

    /// The session store of `account` (created on first use), to seed or inspect it.
    public func inMemorySessionStore(for account: AccountKey) -> InMemorySessionStore {
        store(\.sessions, of: account) { InMemorySessionStore() }
    }

    private func store<Store: Sendable>(
        _ stores: WritableKeyPath<State, [AccountKey: Store]>, of account: AccountKey, _ make: () -> Store
    ) -> Store {
        state.withLock { state in
            if let store = state[keyPath: stores][account] { return store }
            let store = make()
            state[keyPath: stores][account] = store
            return store
        }
    }

    /// The accounts erased so far, in order.
    public var erasedAccounts: [AccountKey] { state.withLock { $0.erased } }

    public func profileStore(for account: AccountKey) throws -> any ProfileStore {
        inMemoryProfileStore(for: account)
    }

    public func sessionStore(for account: AccountKey) throws -> any SessionStore {
        inMemorySessionStore(for: account)
    }

    public func currentAccount(server: String?) async throws -> AccountKey? {
        state.withLock { state in
            guard let server else { return state.last }
            if let last = state.last, last.server == server { return last }
            return state.byServer[server].map { AccountKey(server: server, userId: $0) }
        }
    }

    public func setCurrentAccount(_ account: AccountKey) async throws {
        state.withLock { state in
            state.last = account
            state.byServer[account.server] = account.userId
        }
    }

    public func knownAccounts() async throws -> [KnownAccount] {
        let sessions = state.withLock { $0.sessions }
        var known: [KnownAccount] = []
        for (key, store) in sessions {
            if let session = try await store.load() { known.append(KnownAccount(key: key, email: session.email)) }
        }
        return KnownAccount.sorted(known)
    }

    public func erase(_ account: AccountKey) async throws {
        let (profile, session) = state.withLock { state in
            state.erased.append(account)
            if state.last == account { state.last = nil }
            if state.byServer[account.server] == account.userId { state.byServer[account.server] = nil }
            return (state.profiles[account], state.sessions[account])
        }
        await profile?.erase()
        await session?.delete()
    }
}

/// One call of a kind held on its way, for a test to order what overtakes it: armed by ``holdNext()``,
/// the next ``pass()`` waits until ``release()``. Used only inside one actor, whose isolation guards it.
final class CallHold {
    private var armed = false
    private var held: CheckedContinuation<Void, Never>?
    private var waiter: CheckedContinuation<Void, Never>?

    func holdNext() { armed = true }

    /// Waits here if armed (then disarms); whether it was held.
    @discardableResult
    func pass(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        guard armed else { return false }
        armed = false
        await withCheckedContinuation { continuation in
            held = continuation
            waiter?.resume()
            waiter = nil
        }
        return true
    }

    func waitUntilHeld(isolation: isolated (any Actor)? = #isolation) async {
        if held != nil { return }
        await withCheckedContinuation { waiter = $0 }
    }

    func release() {
        held?.resume()
        held = nil
    }
}
