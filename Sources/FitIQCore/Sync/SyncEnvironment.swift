#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Time, randomness and the time zone, injected so tests control them.
public struct SyncEnvironment: Sendable {
    /// The one source of time: sleeps for backoffs and waits, and dates for timestamps.
    public var clock: any DatedClock
    /// The current date, from ``clock``.
    public var now: @Sendable () -> Date {
        let clock = self.clock
        return { clock.date() }
    }
    /// A number in 0..<1 for jitter.
    public var random: @Sendable () -> Double
    /// The user's local time, for calendar days.
    public var timeZone: LocalZone
    /// This process, recorded in the outbox claims it takes; `nil` when unknown.
    public var process: ProcessIdentity?
    /// Whether a process is still running; a claim whose holder is gone is void.
    public var isRunning: @Sendable (ProcessIdentity) -> Bool = { _ in true }
    /// How many progress posts may be in flight at once (1 sends them one after another).
    public var progressPostsInFlight = ProgressWindow.defaultLimit

    public init(clock: any DatedClock, random: @escaping @Sendable () -> Double, timeZone: LocalZone) {
        self.clock = clock
        self.random = random
        self.timeZone = timeZone
    }

    /// The system clock and random generator, with the user's local time `timeZone`.
    public static func live(timeZone: LocalZone) -> SyncEnvironment {
        SyncEnvironment(clock: SystemClock(), random: { Double.random(in: 0..<1) }, timeZone: timeZone)
    }
}

/// Where an outbox drain ended.
public struct SyncReport: Sendable, Equatable {
    /// Changes still waiting to be acknowledged.
    public var pending: Int
    /// Changes the server refused.
    public var rejected: Int
    /// The last retryable failure, when something is still pending.
    public var lastProblem: SyncProblem?

    public init(pending: Int, rejected: Int, lastProblem: SyncProblem?) {
        self.pending = pending
        self.rejected = rejected
        self.lastProblem = lastProblem
    }

    init(_ state: AccountRecord<some EntryList>) {
        pending = state.pending.count
        rejected = state.pending.rejectedCount
        lastProblem = state.pending.lastProblem
    }

    /// Whether everything was acknowledged.
    public var isSynced: Bool { pending == 0 && rejected == 0 }
}
