/// Why a call could not be made on the user's behalf (worded by FitIQWords).
public enum SessionError: Error, Equatable, Sendable {
    /// No account is signed in here.
    case notSignedIn
    /// The server at `server` refused the session just now: its access token, then its refresh token
    /// (or a token it had just issued). It ended the session, or another server answers at that
    /// address now (one that never issued the tokens). Changes stay saved locally.
    case signedOut(server: String, reason: String)
    /// The session with `server` was ended before (a refusal this or another process met).
    case ended(server: String)
}
