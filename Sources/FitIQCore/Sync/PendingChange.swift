#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One user-visible change waiting in the outbox, as status and logout name it.
public struct PendingChange: Sendable, Equatable {
    public var item: OutboxItemID
    /// What changed, e.g. `profile: name, bio` or `weight history: 72.4 kg on 2026-11-22`.
    public var summary: String
    /// The server's message when it refused the change.
    public var rejection: String?
    /// The last retryable failure, if any.
    public var lastError: String?
    /// How many user-visible changes the entry carries.
    public var changeCount: Int
    /// What keeps it from going out at the next sync, when something does (a rejection aside).
    public var hold: Hold? = nil

    /// What keeps a pending change waiting, and so what a person can do about it.
    public enum Hold: Sendable, Equatable {
        /// Every field it carries conflicts with the server's value: it waits for `resolve`.
        case conflict
        /// A failed attempt is backing off until then; a sync started by hand tries at once.
        case backoff(until: Date)
        /// A running process is sending it now (pid when known); it lets go when it is done or exits.
        case sending(pid: Int32?)
    }
}

extension PendingChange.Hold {
    /// What holds the change back and what a person can do about it, in a few words.
    public func advice(now: Date) -> String {
        switch self {
        case .conflict:
            return "held until its conflict is resolved"
        case .backoff(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
            return "next try in \(seconds) s; a sync now tries at once"
        case .sending(let pid):
            return pid.map { "being sent by process \($0); it lets go when it ends" } ?? "being sent by another process"
        }
    }
}
