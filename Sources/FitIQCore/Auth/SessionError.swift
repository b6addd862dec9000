import FitIQLocalization

/// Why a call could not be made on the user's behalf.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No account is signed in here.
    case notSignedIn
    /// The server refused to renew the session; changes stay saved locally.
    case signedOut(reason: String)

    public var description: String {
        switch self {
        case .notSignedIn:
            tr("You are not signed in. Run `fitiq-tui login --email you@example.com` (or `register`).")
        case .signedOut(let reason):
            tr(
                "You were signed out ({reason}). Your changes are kept locally; sign in again to send them.",
                ["reason": reason])
        }
    }
}
