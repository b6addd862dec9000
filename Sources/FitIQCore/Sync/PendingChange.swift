#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One user-visible change waiting in the outbox, as status and logout name it.
public struct PendingChange: Sendable, Equatable {
    public var item: OutboxItemID
    /// What changed, kept as data: the sentence (``summary``) is said when it is read, in the language
    /// then in force (a view built by the background sync is shown in the editor's language of the
    /// moment).
    public var subject: Subject
    /// The server's message when it refused the change.
    public var rejection: String?
    /// The last retryable failure, if any (worded when read).
    public var lastProblem: SyncProblem?
    /// How many user-visible changes the entry carries.
    public var changeCount: Int
    /// What keeps it from going out at the next sync, when something does (a rejection aside).
    public var hold: Hold? = nil

    /// What a pending change changes.
    public enum Subject: Sendable, Equatable {
        /// The profile's fields (one `PUT`).
        case profile(fields: [Field])
        /// The physical fields (one `PATCH`): the height, a biological sex from the health source.
        case physical(heightCm: Double?, biologicalSex: BiologicalSex?, units: UnitSystem)
        /// A history entry to post.
        case entry(type: String, value: Double, day: CalendarDate, units: UnitSystem)
        /// A history entry to remove.
        case removal(type: String, value: Double, day: CalendarDate, units: UnitSystem)

    }

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
