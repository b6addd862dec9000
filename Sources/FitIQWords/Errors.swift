import FitIQCore
import FitIQLocalization

extension SessionError: CustomStringConvertible {
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

extension AccountError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .profileNotLoaded:
            tr(
                "The profile has not been loaded from the server yet; run `fitiq-tui sync` when the server is reachable."
            )
        case .pendingChanges(let changes):
            tr(
                "Not signed out: these changes have not reached the server yet: {changes}. Run `fitiq-tui sync --wait`, or sign out with --discard-pending to drop them.",
                ["changes": changes.map(\.summary).joined(separator: "; ")])
        case .tokenWithoutUserId:
            tr("The server's access token does not name a user (no `sub` claim); cannot sign in.")
        case .unknownAccount(let email, let known) where known.isEmpty:
            tr(
                "No account is signed in on this machine, so not {email}: run `fitiq-tui login --email {email}`.",
                ["email": TextSanitizer.sanitize(email)])
        case .unknownAccount(let email, let known):
            tr(
                "No account {email} is signed in on this machine; the accounts here are: {accounts}.",
                [
                    "email": TextSanitizer.sanitize(email),
                    "accounts": known.map { "\(TextSanitizer.sanitize($0.email)) (\($0.key.server))" }
                        .joined(separator: ", "),
                ])
        }
    }
}

extension ServerAddress.Problem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformed(let text):
            tr(
                "Server \"{server}\" is not a URL; write it like https://api.example.com.",
                ["server": TextSanitizer.sanitize(text)])
        case .unsupportedScheme(let text):
            tr(
                "Server \"{server}\" must start with https:// (or http:// for this machine).",
                ["server": TextSanitizer.sanitize(text)])
        case .insecure(let text):
            tr(
                "Server \"{server}\" uses plain http:// to another machine: passwords and tokens would cross the network unencrypted. Use https://, or pass --allow-insecure-http if you must.",
                ["server": TextSanitizer.sanitize(text)])
        }
    }
}

extension CorrectionError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noSuchEntry(let id, let metric):
            tr(
                "No {metric} entry has the id {id}; `fitiq-tui {metric} history --json` lists them.",
                ["metric": "\(metric)", "id": TextSanitizer.sanitize(id)])
        case .beingSent:
            tr("That entry is being sent to the server right now; run `fitiq-tui sync` and try again.")
        }
    }
}

extension DynamicLibrary.Problem: CustomStringConvertible {
    /// Why a library cannot be used, in a few words: the system's own (`libxml2.so.2: cannot open
    /// shared object file`), or the function it lacks (`it has no xmlInitParser`).
    public var description: String {
        switch self {
        case .notOpened(let said?): said
        case .notOpened(nil): tr("dlopen failed")
        case .lacks(let symbol): tr("it has no {function}", ["function": symbol])
        }
    }
}

extension DynamicLibrary.Missing {
    /// Why the library cannot be used, in a few words (``DynamicLibrary/Problem``).
    public var reason: String { problem.description }
}
