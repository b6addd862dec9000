/// Account calls of the backend (`/auth/*`); they need the API key, never a bearer token.
public protocol AuthRemote: Sendable {
    /// Creates an account and returns its first token pair.
    func register(_ registration: Registration) async throws(RemoteError) -> RegistrationResult
    /// Exchanges email and password for a token pair.
    func login(email: String, password: String) async throws(RemoteError) -> TokenPair
    /// Trades a refresh token for a new pair; the old refresh token is spent.
    func refresh(refreshToken: String) async throws(RemoteError) -> TokenPair
}

/// Profile calls of the backend (`/users/me`, `/users/me/physical`).
public protocol ProfileRemote: Sendable {
    /// Reads the signed-in user's profile; `.notFound` while it has none.
    func fetchProfile(accessToken: String) async throws(RemoteError) -> RemoteProfile
    /// Creates the profile; `.conflict` when it exists already.
    func createProfile(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError) -> RemoteProfile
    /// Replaces the profile's metadata.
    func updateMetadata(_ metadata: ProfileMetadata, accessToken: String) async throws(RemoteError) -> RemoteProfile
    /// Changes height and/or biological sex.
    func updatePhysical(_ patch: PhysicalPatch, accessToken: String) async throws(RemoteError) -> RemoteProfile
}

/// Progress calls of the backend (`/progress`), used for every metric's history.
public protocol ProgressRemote: Sendable {
    /// Reads one page of entries.
    func list(_ query: ProgressQuery, accessToken: String) async throws(RemoteError) -> ProgressPage
    /// Records one measurement.
    func log(_ entry: NewProgressEntry, accessToken: String) async throws(RemoteError) -> RemoteProgressEntry
    /// Removes one entry.
    func delete(id: String, accessToken: String) async throws(RemoteError)
}
