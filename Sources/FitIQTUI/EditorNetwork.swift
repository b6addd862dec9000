import FitIQCore
import Foundation

/// How the editor reaches the server: signing in, registering and syncing. Everything else it does
/// works on the cache alone.
public protocol EditorNetwork: Sendable {
    func signIn(email: String, password: String) async throws -> Accounts.SignedIn
    func register(email: String, password: String, name: String, dateOfBirth: String) async throws
        -> Accounts.SignedIn
    /// Sends pending changes and reads the server's copy, for up to `deadline`.
    ///
    /// - Throws: ``SessionError`` when the account is signed out; any other error means offline.
    func sync(_ account: Account, until deadline: Date) async throws
}

/// The network through this process's own HTTP backend.
public struct InProcessNetwork: EditorNetwork {
    let accounts: Accounts

    public init(accounts: Accounts) {
        self.accounts = accounts
    }

    public func signIn(email: String, password: String) async throws -> Accounts.SignedIn {
        try await accounts.signIn(email: email, password: password)
    }

    public func register(email: String, password: String, name: String, dateOfBirth: String) async throws
        -> Accounts.SignedIn
    {
        try await accounts.register(email: email, password: password, name: name, dateOfBirth: dateOfBirth)
    }

    public func sync(_ account: Account, until deadline: Date) async throws {
        try await account.syncNow(until: deadline)
    }
}
