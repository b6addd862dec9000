#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One signed-in account on one server, with everything its use cases need. Its cache, sync engine
/// and session are its own: front ends call its use cases, and read what it publishes.
public struct Account: Sendable {
    public let key: AccountKey
    public let email: String
    let store: any ProfileStore
    public let sessions: any SessionStore
    let session: SessionManager
    let engine: SyncEngine
    public let environment: SyncEnvironment

    public init(
        key: AccountKey, email: String, store: any ProfileStore, sessions: any SessionStore, backend: Backend,
        environment: SyncEnvironment
    ) {
        self.key = key
        self.email = email
        self.store = store
        self.sessions = sessions
        self.environment = environment
        let session = SessionManager(store: sessions, auth: backend.auth, now: environment.now)
        self.session = session
        self.engine = SyncEngine(
            store: store, session: session, profiles: backend.profiles, progress: backend.progress,
            identity: AccountIdentity(userId: key.userId, email: email), environment: environment)
    }
}

extension Account {
    /// A cheap mark of the cached state that changes with every write, by this process or another.
    public func revision() async -> StoreRevision? {
        await store.revision()
    }

    /// The folder every write of the account goes to (a watch there sees other processes' saves);
    /// `nil` when the cache is not kept in files.
    public var cacheFolder: URL? { store.watchedFolder }

    /// Calls `observer` after each write that records the server's answers, from now on: an open
    /// editor shows each acknowledgement at once. One observer at a time; a new one replaces it.
    public func onSettled(_ observer: @escaping @Sendable () async -> Void) async {
        await engine.onSettled(observer)
    }
}

/// The backend's three remote ports together.
public struct Backend: Sendable {
    public var auth: any AuthRemote
    public var profiles: any ProfileRemote
    public var progress: any ProgressRemote

    public init(auth: any AuthRemote, profiles: any ProfileRemote, progress: any ProgressRemote) {
        self.auth = auth
        self.profiles = profiles
        self.progress = progress
    }
}

/// Why a use case could not do what was asked (worded by FitIQWords).
public enum AccountError: Error, Equatable, Sendable {
    /// The profile has never been loaded from the server on this machine.
    case profileNotLoaded
    /// Signing out would lose changes the server has not acknowledged.
    case pendingChanges([PendingChange])
    /// The server's token carries no user id.
    case tokenWithoutUserId
    /// No account with this email is signed in on this machine; `known` lists those that are.
    case unknownAccount(String, known: [KnownAccount])
}
