#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why the last attempt at a change did not reach the server, kept as data: FitIQWords says it when it
/// is read, in the language then in force, so a reason kept in the outbox while the profile was English
/// reads in German once German is chosen.
public enum SyncProblem: Sendable, Equatable, Codable {
    /// The call failed in a way worth trying again (unreachable, 429/5xx, an unreadable answer).
    case remote(RemoteError)
    /// The server answered 404 to a profile change although a read found the profile.
    case profileExists(serverSaid: String)
    /// A reason worded already: an error outside the contract, or a cache written before reasons were
    /// kept as data.
    case said(String)

    /// Whether the attempt found no way to the server (``RemoteError/offline(message:)``).
    public var isOffline: Bool {
        if case .remote(let error) = self { error.isOffline } else { false }
    }

    /// How a problem reads in English, for the cache's readable copy.
    public typealias Wording = @Sendable (SyncProblem) -> String

    /// The key under which an encoder's `userInfo` holds a ``Wording``: a cache file then keeps each
    /// problem's English beside its data, for people and for an older fitiq-tui.
    public static let inEnglish: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "fitiq.syncProblem.inEnglish") else {
            preconditionFailure("a coding key of letters and dots is always valid")
        }
        return key
    }()
}
