import FitIQLocalization

/// Why a call could not be made on the user's behalf.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No account is signed in here.
    case notSignedIn
    /// The server at `server` refused the session just now: its access token, then its refresh token
    /// (or a token it had just issued). It ended the session, or another server answers at that
    /// address now (one that never issued the tokens). Changes stay saved locally.
    case signedOut(server: String, reason: String)
    /// The session with `server` was ended before (a refusal this or another process met).
    case ended(server: String)

    public var description: String {
        switch self {
        case .notSignedIn:
            tr("You are not signed in. Run `fitiq-tui login --email you@example.com` (or `register`).")
        case .signedOut(let server, let reason):
            tr(
                "The server at {server} refused this account's tokens ({reason}): it ended the session, or it is not the server that issued them. Your changes are kept on this machine; run `fitiq-tui login --server {server}` to sign in again and send them.",
                ["server": server, "reason": reason])
        case .ended(let server):
            tr(
                "The session with {server} has ended. Your changes are kept on this machine; run `fitiq-tui login --server {server}` to sign in again and send them.",
                ["server": server])
        }
    }
}
