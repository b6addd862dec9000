import FitIQLocalization

/// Why the last attempt at a change did not reach the server, kept as data: the sentence
/// (``description``) is said when it is read, in the language then in force, so a reason kept in the
/// outbox while the profile was English reads in German once German is chosen.
public enum SyncProblem: Sendable, Equatable, Codable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .remote(let error): error.description
        case .profileExists(let message):
            tr("The server said \"{message}\" although the profile exists; will retry.", ["message": message])
        case .said(let text): text
        }
    }

    /// The sentence in English, for the cache's readable copy and JSON output (which are never
    /// translated).
    public var english: String { Localizer.$current.withValue(.english) { description } }
}
