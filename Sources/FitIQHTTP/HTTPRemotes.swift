import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The backend's `/auth/*` calls over HTTP (API key only, no bearer).
public struct HTTPAuthRemote: AuthRemote {
    let transport: HTTPTransport

    public init(transport: HTTPTransport) {
        self.transport = transport
    }

    public func register(_ registration: Registration) async throws(RemoteError) -> RegistrationResult {
        let answer = try await transport.send(.POST, "api/v1/auth/register", body: WireRequests.register(registration))
        return try transport.read(answer) { body throws(WireResponses.Unreadable) in
            try WireResponses.registration(body, email: registration.email)
        }
    }

    public func login(email: String, password: String) async throws(RemoteError) -> TokenPair {
        let answer = try await transport.send(
            .POST, "api/v1/auth/login", body: WireRequests.login(email: email, password: password))
        return try transport.read(answer, WireResponses.tokens)
    }

    public func refresh(refreshToken: String) async throws(RemoteError) -> TokenPair {
        let answer = try await transport.send(
            .POST, "api/v1/auth/refresh", body: WireRequests.refresh(refreshToken: refreshToken))
        return try transport.read(answer, WireResponses.tokens)
    }
}

/// The backend's `/users/me*` calls over HTTP.
public struct HTTPProfileRemote: ProfileRemote {
    let transport: HTTPTransport

    public init(transport: HTTPTransport) {
        self.transport = transport
    }

    public func fetchProfile(accessToken: String) async throws(RemoteError) -> RemoteProfile {
        try await profile(.GET, "api/v1/users/me", accessToken)
    }

    public func createProfile(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    {
        try await profile(.POST, "api/v1/users/me", accessToken, body: WireRequests.profile(metadata))
    }

    public func updateMetadata(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    {
        try await profile(.PUT, "api/v1/users/me", accessToken, body: WireRequests.profile(metadata))
    }

    public func updatePhysical(_ patch: PhysicalPatch, accessToken: String) async throws(RemoteError)
        -> RemoteProfile
    {
        try await profile(.PATCH, "api/v1/users/me/physical", accessToken, body: WireRequests.physical(patch))
    }

    /// One call whose answer is the profile.
    private func profile(_ method: HTTPMethod, _ path: String, _ accessToken: String, body: Data? = nil)
        async throws(RemoteError) -> RemoteProfile
    {
        let answer = try await transport.send(method, path, body: body, bearer: accessToken)
        return try transport.read(answer, WireResponses.profile)
    }
}

/// The backend's `/progress` calls over HTTP.
public struct HTTPProgressRemote: ProgressRemote {
    let transport: HTTPTransport

    public init(transport: HTTPTransport) {
        self.transport = transport
    }

    public func list(_ query: ProgressQuery, accessToken: String) async throws(RemoteError) -> ProgressPage {
        let answer = try await transport.send(
            .GET, "api/v1/progress", query: WireRequests.progressQuery(query), bearer: accessToken)
        return try transport.read(answer) { body throws(WireResponses.Unreadable) in
            try WireResponses.progressPage(body, query: query)
        }
    }

    public func log(_ entry: NewProgressEntry, accessToken: String) async throws(RemoteError) -> RemoteProgressEntry {
        let answer = try await transport.send(
            .POST, "api/v1/progress", body: WireRequests.progress(entry), bearer: accessToken)
        return try transport.read(answer, WireResponses.progressEntry)
    }

    public func delete(id: String, accessToken: String) async throws(RemoteError) {
        // Every byte but ASCII letters, digits and `-` is percent-encoded: an id is never a path of its own.
        let escaped = PercentEncoding.encode(id) { byte, _ in PercentEncoding.isAlphanumeric(byte) || byte == 0x2D }
        _ = try await transport.send(.DELETE, "api/v1/progress/\(escaped)", bearer: accessToken)
    }
}

extension Backend {
    /// The three remotes over one HTTP transport.
    public init(transport: HTTPTransport) {
        self.init(
            auth: HTTPAuthRemote(transport: transport), profiles: HTTPProfileRemote(transport: transport),
            progress: HTTPProgressRemote(transport: transport))
    }
}
