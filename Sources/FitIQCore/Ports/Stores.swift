#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The account's cached profile, outbox and history, shared by every process of the account.
public protocol ProfileStore: Sendable {
    /// Reads the current state; an account never saved reads as ``AccountState/empty``.
    func load() async throws -> AccountState
    /// Reads the freshest state, applies `change` and saves the result, all under the account lock.
    func update<T: Sendable>(_ change: @Sendable (inout AccountState) throws -> T) async throws -> T
    /// Deletes everything cached for the account.
    func erase() async throws
    /// A cheap mark of the stored state that changes whenever it is written, by this process or another;
    /// `nil` when nothing is stored. The editor watches it to show other processes' changes.
    func revision() async -> StoreRevision?
    /// What a first frame needs, without reading the whole history: the state with its history cut
    /// to each metric's latest entries, and a summary per metric.
    func overview() async throws -> AccountOverview
    /// ``update(_:)`` for a change that needs only the latest entries of each history (a new
    /// measurement, a profile edit, an acknowledgement): `change` is given each metric's latest
    /// entries (``HistorySummary/latest``), and run again on all of them when it did more than add
    /// newer entries. It must be a pure function of the state it is given.
    ///
    /// - Parameter including: entries the change must see besides the latest ones (an answer to posts
    ///   gives their entries, possibly older ones, the server's ids): the store reads their months alone.
    func updateRecent<T: Sendable>(
        including: [EntryLocation], _ change: @Sendable (inout RecentAccountState) throws -> T
    ) async throws -> T
    /// Calls `body` with each entry of `metric`'s history logged at or after `since` (all of them when
    /// `nil`), oldest first, without holding the whole history at once (an export of years of data) and
    /// without reading the months before `since`.
    func forEachEntry(of metric: Metric, since: Date?, _ body: (ProgressEntry) throws -> Void) async throws
    /// The account's goals: kept on this machine only, removed by ``erase()``.
    func goals() async throws -> Goals
    /// Reads the goals, applies `change` and saves the result, under the account lock.
    func updateGoals<T: Sendable>(_ change: @Sendable (inout Goals) throws -> T) async throws -> T
    /// The folder every write of the account goes to, for a watch of other processes' saves; `nil` for
    /// a store kept elsewhere (in memory).
    var watchedFolder: URL? { get }
}

extension ProfileStore {
    public var watchedFolder: URL? { nil }

    /// ``updateRecent(including:_:)`` with the latest entries alone.
    public func updateRecent<T: Sendable>(_ change: @Sendable (inout RecentAccountState) throws -> T) async throws -> T
    {
        try await updateRecent(including: [], change)
    }

    /// ``update(_:)`` with the latest entries, then every entry when the change needs them: for
    /// stores whose history costs nothing to read (in memory).
    public func updateRecent<T: Sendable>(
        including: [EntryLocation], _ change: @Sendable (inout RecentAccountState) throws -> T
    ) async throws -> T {
        try await update { state in try RecentEntries.apply(change, to: &state, including: Set(including.map(\.id))) }
    }
    /// Every entry of `metric`'s history, oldest first (``forEachEntry(of:since:_:)``).
    public func forEachEntry(of metric: Metric, _ body: (ProgressEntry) throws -> Void) async throws {
        try await forEachEntry(of: metric, since: nil, body)
    }

    /// The entries of a full ``load()``: for stores whose history costs nothing to read (in memory).
    public func forEachEntry(of metric: Metric, since: Date?, _ body: (ProgressEntry) throws -> Void) async throws {
        for entry in try await load().history(of: metric).reversed() where since.map({ entry.loggedAt >= $0 }) ?? true {
            try body(entry)
        }
    }

    /// Summarises a full ``load()``: for stores whose history costs nothing to read (in memory).
    public func overview() async throws -> AccountOverview {
        AccountOverview(full: try await load())
    }
}

/// The account as a first frame shows it: everything but the history's bulk.
public struct AccountOverview: Sendable, Equatable {
    /// The state; its `history` holds only what the summaries list as latest unless ``isComplete``.
    public var state: RecentAccountState
    /// The summary of each metric's history, by progress type.
    public var summaries: [String: HistorySummary]
    /// Whether `state.history` is the whole history.
    public var isComplete: Bool

    public init(state: RecentAccountState, summaries: [String: HistorySummary], isComplete: Bool) {
        self.state = state
        self.summaries = summaries
        self.isComplete = isComplete
    }

    /// The overview of a state read whole.
    public init(full state: AccountState) {
        self.state = state.with(RecentEntries(entries: state.history.entries))
        self.summaries = Dictionary(grouping: state.history, by: \.type).mapValues { HistorySummary(of: $0) }
        self.isComplete = true
    }
}

/// What ``ProfileStore/revision()`` returns: equal marks mean the stored state was not written between them.
public struct StoreRevision: Hashable, Sendable {
    public let parts: [Int64]

    public init(_ parts: [Int64]) {
        self.parts = parts
    }
}

/// The account's session (tokens), shared by every process of the account.
public protocol SessionStore: Sendable {
    /// Reads the session, if there is one.
    func load() async throws -> Session?
    /// Replaces the session.
    func save(_ session: Session) async throws
    /// Forgets the session and its tokens.
    func delete() async throws
    /// Reads the freshest session and replaces it with what `body` returns, holding the account lock
    /// throughout, so two processes never spend the same refresh token.
    func exchange(_ body: @Sendable (Session?) async throws -> Session?) async throws -> Session?
}

/// Where accounts are kept, and which one is current.
public protocol AccountDirectory: Sendable {
    /// The cached state of `account`.
    func profileStore(for account: AccountKey) throws -> any ProfileStore
    /// The session of `account`.
    func sessionStore(for account: AccountKey) throws -> any SessionStore
    /// The last account signed in (on `server`, when given).
    func currentAccount(server: String?) async throws -> AccountKey?
    /// Makes `account` the current one.
    func setCurrentAccount(_ account: AccountKey) async throws
    /// Deletes the account's cached data, session and lock, and forgets it as current.
    func erase(_ account: AccountKey) async throws
    /// Every account with a session on this machine, on any server, by email then server.
    func knownAccounts() async throws -> [KnownAccount]
}

/// An account kept on this machine, as ``AccountDirectory/knownAccounts()`` lists it: where and who.
public struct KnownAccount: Sendable, Equatable, Hashable {
    public var key: AccountKey
    public var email: String

    public init(key: AccountKey, email: String) {
        self.key = key
        self.email = email
    }

    /// The account of `accounts` with `email` (its case ignored): the one on `server` when there is one
    /// there, else the first; `nil` when none has it.
    public static func find(_ email: String, in accounts: [KnownAccount], preferring server: String?)
        -> KnownAccount?
    {
        let wanted = email.trimmingWhitespace().lowercased()
        let matches = accounts.filter { $0.email.lowercased() == wanted }
        return matches.first { $0.key.server == server } ?? matches.first
    }

    /// Sorted by email, then server, then user id: the order `accounts` lists them in.
    public static func sorted(_ accounts: [KnownAccount]) -> [KnownAccount] {
        accounts.sorted {
            ($0.email.lowercased(), $0.key.server, $0.key.userId) < (
                $1.email.lowercased(), $1.key.server, $1.key.userId
            )
        }
    }
}
