#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sign in, register, sign out and find the current account on one server.
public struct Accounts: Sendable {
    public let server: String
    public let apiKey: String?
    public let directory: any AccountDirectory
    public let backend: Backend
    public let environment: SyncEnvironment

    public init(
        server: String, apiKey: String?, directory: any AccountDirectory, backend: Backend,
        environment: SyncEnvironment
    ) {
        self.server = server
        self.apiKey = apiKey
        self.directory = directory
        self.backend = backend
        self.environment = environment
    }

    /// The result of signing in: the account, and why its profile could not be loaded yet, if so.
    public struct SignedIn: Sendable {
        public let account: Account
        public let profileError: (any Error)?

        public init(account: Account, profileError: (any Error)?) {
            self.account = account
            self.profileError = profileError
        }
    }

    /// Signs in with email and password, then loads the profile (creating it when the server has none).
    public func signIn(email: String, password: String, nameForNewProfile: String? = nil) async throws -> SignedIn {
        let email = try ProfileRules.email(email)
        let password = try ProfileRules.password(password)
        let tokens = try await backend.auth.login(email: email, password: password)
        guard let userId = AccessTokenClaims(token: tokens.accessToken)?.subject else {
            throw AccountError.tokenWithoutUserId
        }
        let claimedEmail = AccessTokenClaims(token: tokens.accessToken)?.email ?? email
        return try await start(userId: userId, email: claimedEmail, tokens: tokens, name: nameForNewProfile)
    }

    /// Creates an account (13 or older), signs in and creates its profile.
    public func register(email: String, password: String, name: String, dateOfBirth: String) async throws -> SignedIn {
        let today = CalendarDate(containing: environment.now(), in: environment.timeZone)
        let registration = Registration(
            email: try ProfileRules.email(email), password: try ProfileRules.password(password),
            name: try ProfileRules.name(name), dateOfBirth: try ProfileRules.dateOfBirth(dateOfBirth, today: today))
        let result = try await backend.auth.register(registration)
        let userId = AccessTokenClaims(token: result.tokens.accessToken)?.subject ?? result.userId
        return try await start(userId: userId, email: result.email, tokens: result.tokens, name: registration.name)
    }

    /// The account last signed in on this server, if any.
    public func current() async throws -> Account? {
        guard let key = try await directory.currentAccount(server: server),
            let session = try await directory.sessionStore(for: key).load()
        else { return nil }
        return try account(for: key, email: session.email)
    }

    /// Every account signed in on this machine, on any server (``AccountDirectory/knownAccounts()``).
    public func known() async throws -> [KnownAccount] {
        try await directory.knownAccounts()
    }

    /// The account `email` signed in on this server (the email's case ignored), for a switch without
    /// signing in again; ``AccountError/unknownAccount(_:known:)`` names those there are.
    public func account(email: String) async throws -> Account {
        let here = try await known().filter { $0.key.server == server }
        guard let found = KnownAccount.find(email, in: here, preferring: server) else {
            throw AccountError.unknownAccount(email, known: here)
        }
        return try account(for: found.key, email: found.email)
    }

    /// Makes `account` the default: the one commands, the editor and plain mode use when none is named.
    public func makeDefault(_ account: Account) async throws {
        try await directory.setCurrentAccount(account.key)
    }

    /// Signs out: delivers what is pending first (for `seconds`; by default ``Account/deliveryDeadline``),
    /// refuses while changes are pending unless `discardPending`, then deletes the account's cached data
    /// and tokens.
    public func signOut(_ account: Account, discardPending: Bool, syncFor seconds: TimeInterval? = nil) async throws {
        if !discardPending {
            let deadline =
                seconds.map { environment.now().addingTimeInterval($0) }
                ?? environment.clock.date(after: Account.deliveryDeadline)
            _ = try? await account.engine.drain(until: deadline, whenOffline: .stop)
            let state = try await account.store.load()
            let open = state.pending.changes(timeZone: environment.timeZone)
            if !open.isEmpty { throw AccountError.pendingChanges(open) }
        }
        try await directory.erase(account.key)
    }

    /// The account `key`, with stores from the directory.
    public func account(for key: AccountKey, email: String) throws -> Account {
        Account(
            key: key, email: email, store: try directory.profileStore(for: key),
            sessions: try directory.sessionStore(for: key), backend: backend, environment: environment)
    }

    private func start(userId: String, email: String, tokens: TokenPair, name: String?) async throws -> SignedIn {
        let key = AccountKey(server: server, userId: userId)
        let sessions = try directory.sessionStore(for: key)
        try await sessions.save(
            Session(account: key, email: email, apiKey: apiKey, tokens: tokens, tokensReceivedAt: environment.now()))
        try await directory.setCurrentAccount(key)
        let account = try account(for: key, email: email)
        do {
            try await account.engine.pullAll(full: true, nameForNewProfile: name)
            try await account.engine.drain()
            return SignedIn(account: account, profileError: nil)
        } catch let error as SessionError {
            throw error
        } catch {
            return SignedIn(account: account, profileError: error)
        }
    }
}
