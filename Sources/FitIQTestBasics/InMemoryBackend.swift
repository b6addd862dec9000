import FitIQCore
import Foundation

/// An in-memory FitIQ backend implementing every remote port, with a request log and fault switches.
///
/// It follows the contract's rules that the core depends on: 404 before the profile exists, 409 on a
/// second create, rotating refresh tokens, 401 for expired access tokens, 400 for an empty PATCH.
public actor InMemoryBackend: AuthRemote, ProfileRemote, ProgressRemote {
    /// One call the backend received.
    public enum Request: Sendable, Equatable {
        case register(email: String)
        case login(email: String)
        case refresh
        case fetchProfile
        case createProfile(ProfileMetadata)
        case updateMetadata(ProfileMetadata)
        case updatePhysical(PhysicalPatch)
        case listProgress(ProgressQuery)
        case logProgress(NewProgressEntry)
        case deleteProgress(String)

        /// The kind of call, for fault switches.
        public var kind: Kind {
            switch self {
            case .register: .register
            case .login: .login
            case .refresh: .refresh
            case .fetchProfile: .fetchProfile
            case .createProfile: .createProfile
            case .updateMetadata: .updateMetadata
            case .updatePhysical: .updatePhysical
            case .listProgress: .listProgress
            case .logProgress: .logProgress
            case .deleteProgress: .deleteProgress
            }
        }
    }

    /// Kinds of calls.
    public enum Kind: Sendable, Hashable {
        case register, login, refresh, fetchProfile, createProfile, updateMetadata, updatePhysical
        case listProgress, logProgress, deleteProgress
    }

    /// A fault to inject into the next calls of one kind.
    public enum Fault: Sendable {
        /// Answer with this error without doing anything.
        case fail(RemoteError)
        /// Do the work, then lose the answer (the ambiguous failure).
        case dropAfterApplying
    }

    public nonisolated let userId: String
    public nonisolated let email: String
    public var password: String
    public private(set) var profile: RemoteProfile?
    public private(set) var entries: [RemoteProgressEntry] = []
    public private(set) var requests: [Request] = []
    /// Every call is answered `.unreachable` while set.
    public var offline = false
    /// Lifetime of issued access tokens.
    public var accessTokenLifetime: TimeInterval = 3600
    /// Refusals for an access token are answered once this many requests were refused, so callers
    /// that set out together all meet the expired token before any of them learns of it
    /// (``holdRefusals(until:)``).
    private var refusalsHeldUntil = 0
    /// Requests refused for their access token so far.
    private var refusedForToken = 0
    private var heldRefusals: [CheckedContinuation<Void, Never>] = []
    private var faults: [Kind: [Fault]] = [:]
    /// Each access token issued, with when it expires (by the injected clock).
    private var validAccessTokens: [String: Date] = [:]
    private var refreshTokens: [String: Bool] = [:]
    private var serial = 0
    private let now: @Sendable () -> Date

    public init(
        userId: String = "6f1c1b52-8b5e-4a54-9d3c-0d6d7e1f2a10", email: String = "jane@example.com",
        password: String = "correct horse", profile: RemoteProfile? = nil, now: @escaping @Sendable () -> Date
    ) {
        self.userId = userId
        self.email = email
        self.password = password
        self.profile = profile
        self.now = now
    }

    // MARK: Test controls

    /// Makes the next `count` calls of `kind` fail as `fault` says.
    public func inject(_ fault: Fault, into kind: Kind, times count: Int = 1) {
        faults[kind, default: []] += Array(repeating: fault, count: count)
    }

    public func setOffline(_ offline: Bool) { self.offline = offline }
    /// Holds the answer of each request refused for its access token until `count` were refused:
    /// concurrent requests that set out with an expired token are all refused before any of them can
    /// start a refresh, whatever the machine's load. (Holding the refresh instead waited forever when
    /// the other requests, seeing it under way, waited for it rather than set out.)
    public func holdRefusals(until count: Int) { refusalsHeldUntil = count }
    public func setAccessTokenLifetime(_ lifetime: TimeInterval) { accessTokenLifetime = lifetime }
    /// With `true`, `PATCH /physical` answers without `updated_at`, as the real server does.
    public func answerPatchesWithoutUpdatedAt(_ omit: Bool) { patchAnswerOmitsUpdatedAt = omit }
    private var patchAnswerOmitsUpdatedAt = false
    public func setProfile(_ profile: RemoteProfile?) { self.profile = profile }
    /// With `true`, writes of biological sex are answered but not kept (a server that loses the value).
    public func forgetBiologicalSex(_ forget: Bool) { forgetsBiologicalSex = forget }
    private var forgetsBiologicalSex = false
    public func setEntries(_ entries: [RemoteProgressEntry]) { self.entries = entries }
    public func clearRequests() { requests = [] }

    /// Issues a token pair as a login would, without logging a request.
    public func issueTokens() -> TokenPair { makeTokens() }

    /// Makes every access token issued so far invalid (as if it expired).
    public func expireAccessTokens() { validAccessTokens = [:] }

    /// The requests of one kind.
    public func requests(_ kind: Kind) -> [Request] { requests.filter { $0.kind == kind } }

    // MARK: AuthRemote

    public func register(_ registration: Registration) async throws(RemoteError) -> RegistrationResult {
        try await receive(.register(email: registration.email))
        return RegistrationResult(userId: userId, email: registration.email, tokens: makeTokens())
    }

    public func login(email: String, password: String) async throws(RemoteError) -> TokenPair {
        try await receive(.login(email: email))
        guard email.lowercased() == self.email.lowercased(), password == self.password else {
            throw .unauthorized(message: "Invalid email or password")
        }
        return makeTokens()
    }

    public func refresh(refreshToken: String) async throws(RemoteError) -> TokenPair {
        try await receive(.refresh)
        guard let spent = refreshTokens[refreshToken] else { throw .unauthorized(message: "invalid refresh token") }
        guard !spent else { throw .unauthorized(message: "refresh token has been revoked") }
        refreshTokens[refreshToken] = true
        return makeTokens()
    }

    // MARK: ProfileRemote

    public func fetchProfile(accessToken: String) async throws(RemoteError) -> RemoteProfile {
        try await receive(.fetchProfile, token: accessToken)
        guard let profile else { throw .notFound(message: "User profile not found") }
        return profile
    }

    public func createProfile(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    {
        try await receive(.createProfile(metadata), token: accessToken)
        guard profile == nil else { throw .conflict(message: "User profile already exists") }
        let created = RemoteProfile(
            userId: userId, profileId: UUID().uuidString, email: email, metadata: metadata, createdAt: now(),
            updatedAt: now())
        profile = created
        return try finishWrite(.createProfile, created)
    }

    public func updateMetadata(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    {
        try await receive(.updateMetadata(metadata), token: accessToken)
        guard var current = profile else { throw .notFound(message: "User profile not found") }
        current.metadata = metadata
        current.updatedAt = now()
        profile = current
        return try finishWrite(.updateMetadata, current)
    }

    public func updatePhysical(_ patch: PhysicalPatch, accessToken: String) async throws(RemoteError) -> RemoteProfile {
        try await receive(.updatePhysical(patch), token: accessToken)
        guard !patch.isEmpty else { throw .rejected(status: 400, message: "Invalid request payload") }
        guard var current = profile else { throw .notFound(message: "User profile not found") }
        if let height = patch.heightCm { current.heightCm = height }
        if let sex = patch.biologicalSex, !forgetsBiologicalSex { current.biologicalSex = sex }
        current.updatedAt = now()
        profile = current
        var answer = current
        if patchAnswerOmitsUpdatedAt { answer.updatedAt = nil }
        return try finishWrite(.updatePhysical, answer)
    }

    // MARK: ProgressRemote

    public func list(_ query: ProgressQuery, accessToken: String) async throws(RemoteError) -> ProgressPage {
        try await receive(.listProgress(query), token: accessToken)
        let matching = entries.filter { entry in
            let day = CalendarDate(containing: entry.loggedAt, in: .utc)
            return (query.type.map { $0 == entry.type } ?? true) && (query.from.map { day >= $0 } ?? true)
                && (query.to.map { day <= $0 } ?? true)
        }.sorted { $0.loggedAt > $1.loggedAt }
        let limit = min(100, max(1, query.limit))
        let page = Array(matching.dropFirst(query.offset).prefix(limit))
        return ProgressPage(entries: page, total: matching.count, limit: limit, offset: query.offset)
    }

    public func log(_ entry: NewProgressEntry, accessToken: String) async throws(RemoteError) -> RemoteProgressEntry {
        try await receive(.logProgress(entry), token: accessToken)
        let created = RemoteProgressEntry(
            id: UUID().uuidString, type: entry.type, quantity: entry.quantity, loggedAt: entry.loggedAt,
            notes: entry.notes)
        entries.append(created)
        return try finishWrite(.logProgress, created)
    }

    public func delete(id: String, accessToken: String) async throws(RemoteError) {
        try await receive(.deleteProgress(id), token: accessToken)
        guard entries.contains(where: { $0.id == id }) else { throw .notFound(message: "Progress entry not found") }
        entries.removeAll { $0.id == id }
        try finishWrite(.deleteProgress, ())
    }

    // MARK: Internals

    private func receive(_ request: Request, token: String? = nil) async throws(RemoteError) {
        requests.append(request)
        await Task.yield()
        if offline { throw .offline(message: .connectionRefused) }
        // A token past its expiry is refused as an unknown one is, as the real server does.
        if let token, (validAccessTokens[token].map { $0 <= now() } ?? true) {
            refusedForToken += 1
            if refusedForToken < refusalsHeldUntil {
                await withCheckedContinuation { heldRefusals.append($0) }
            } else {
                heldRefusals.forEach { $0.resume() }
                heldRefusals = []
            }
            throw .unauthorized(message: "Invalid authentication")
        }
        if case .fail(let error) = faults[request.kind]?.first {
            faults[request.kind]?.removeFirst()
            throw error
        }
    }

    private func finishWrite<T>(_ kind: Kind, _ value: T) throws(RemoteError) -> T {
        if case .dropAfterApplying = faults[kind]?.first {
            faults[kind]?.removeFirst()
            throw .unreachable(message: .other("connection closed before the answer"))
        }
        return value
    }

    private func makeTokens() -> TokenPair {
        serial += 1
        let issued = now()
        let access = TestTokens.jwt(
            subject: userId, email: email, issuedAt: issued, expiresAt: issued.addingTimeInterval(accessTokenLifetime),
            nonce: serial)
        let refresh = "refresh-\(serial)-\(UUID().uuidString)"
        validAccessTokens[access] = issued.addingTimeInterval(accessTokenLifetime)
        refreshTokens[refresh] = false
        return TokenPair(accessToken: access, refreshToken: refresh)
    }
}
