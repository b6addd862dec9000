import FitIQCore
import Foundation
import Synchronization

/// The tests' one clock: it moves only when a test advances it, or with the wall clock as well when it
/// follows it (``followingTheWallClock(sleeps:)``, for a server whose clients in other processes read
/// the wall clock). Its instants are dates from ``start`` on (``date(of:)``).
///
/// A sleep on it waits until the test advances the clock to its deadline, or skips ahead to that
/// deadline at once (``Sleeps/skipAhead``: retries and backoffs run against a live server without the
/// test waiting). A development server's latency is not a sleep on the clock: ``skipSleep(for:)``
/// records it and returns, the clock unmoved. A server in another process reads the time advanced
/// from a file the clock keeps (``mirror(to:)``).
public final class ManualClock: DatedClock {
    /// An instant of the manual clock: an offset from its start.
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// What a sleep on the clock does.
    public enum Sleeps: Sendable {
        /// It waits until the test advances the clock to its deadline.
        case waitForTheTest
        /// It moves the clock to its deadline and returns at once.
        case skipAhead
    }

    private struct Sleeper {
        let id: UUID
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// The time advanced by the test (and by sleeps that skip ahead).
        var advanced = Duration.zero
        var sleepers: [Sleeper] = []
        /// How many sleeps began (woken or not).
        var sleepsBegun = 0
        /// Told each time a sleep begins.
        var watchers: [@Sendable () -> Void] = []
        /// Tasks waiting for a number of sleepers (``waitForSleepers(_:timeout:)``).
        var sleeperWaits: [(id: UUID, count: Int, wake: CheckedContinuation<Void, Never>)] = []
        /// Waits whose time ran out, in case one had not parked yet.
        var expiredWaits: Set<UUID> = []
        /// The sleeps ``skipSleep(for:)`` recorded, in order.
        var skippedSleeps: [Duration] = []
        /// Files that hold the seconds advanced (``mirror(to:)``).
        var mirrors: [URL] = []
    }

    private let state = Mutex(State())
    /// The wall-clock date at the clock's start.
    public let start: Date
    /// What a sleep does.
    public let sleeps: Sleeps
    /// When a clock that follows the wall clock was made; `nil`: the clock stands still.
    private let wallStart: ContinuousClock.Instant?

    /// A clock that stands at `start` until it is advanced.
    public init(start: Date = Date(timeIntervalSince1970: 1_790_000_000), sleeps: Sleeps = .waitForTheTest) {
        self.start = start
        self.sleeps = sleeps
        wallStart = nil
    }

    private init(followingTheWallClockFrom start: Date, sleeps: Sleeps) {
        self.start = start
        self.sleeps = sleeps
        wallStart = ContinuousClock.now
    }

    /// A clock that moves with the wall clock, from now, plus whatever it is advanced by.
    public static func followingTheWallClock(sleeps: Sleeps = .waitForTheTest) -> ManualClock {
        ManualClock(followingTheWallClockFrom: Date(), sleeps: sleeps)
    }

    public var now: Instant { state.withLock { now(in: $0) } }

    private func now(in state: State) -> Instant {
        Instant(offset: state.advanced + (wallStart.map { ContinuousClock.now - $0 } ?? .zero))
    }
    public var minimumResolution: Duration { .zero }

    /// The date of `instant`: `start` plus its offset.
    public func date(of instant: Instant) -> Date {
        let offset = instant.offset.components
        return start.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        if sleeps == .skipAhead {
            try Task.checkCancellation()
            // Measured and moved under one lock: sleepers side by side move the clock to the latest
            // deadline, not by the sum of their waits.
            move { state in
                state.sleepsBegun += 1
                return max(now(in: state).duration(to: deadline), .zero)
            }
            await Task.yield()
            return
        }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock the cancellation handler takes: a task cancelled before it began
                // to sleep (the handler then found no sleeper to wake) does not sleep at all.
                typealias Outcome = (
                    resumeNow: Result<Void, any Error>?, watchers: [@Sendable () -> Void],
                    waits: [CheckedContinuation<Void, Never>]
                )
                let (resumeNow, watchers, waits) = state.withLock { state -> Outcome in
                    if Task.isCancelled { return (.failure(CancellationError()), [], []) }
                    state.sleepsBegun += 1
                    if deadline <= now(in: state) { return (.success(()), state.watchers, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let count = state.sleepers.count
                    let waits = state.sleeperWaits.filter { $0.count <= count }.map(\.wake)
                    state.sleeperWaits.removeAll { $0.count <= count }
                    return (nil, state.watchers, waits)
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
                waits.forEach { $0.resume() }
                watchers.forEach { $0() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward, wakes every sleeper whose deadline has come, and tells the mirrors.
    public func advance(by duration: Duration) {
        move { _ in duration }
    }

    /// Moves time forward by what `step` returns (under the lock), then does what ``advance(by:)`` says.
    private func move(_ step: (inout State) -> Duration) {
        let (due, advanced, mirrors) = state.withLock { state -> ([Sleeper], Duration, [URL]) in
            state.advanced += step(&state)
            let current = now(in: state)
            let due = state.sleepers.filter { $0.deadline <= current }
            state.sleepers.removeAll { $0.deadline <= current }
            return (due, state.advanced, state.mirrors)
        }
        for file in mirrors { try? Self.write(advanced, to: file) }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Records a sleep of `duration` and returns at once, the clock unmoved: a test server's latency.
    public func skipSleep(for duration: Duration) {
        state.withLock { $0.skippedSleeps.append(duration) }
    }

    /// Every sleep ``skipSleep(for:)`` recorded, in order.
    public var skippedSleeps: [Duration] { state.withLock { $0.skippedSleeps } }

    /// Keeps `file` holding the seconds advanced so far: a development server in another process
    /// started with `--clock-file FILE` runs on its wall clock plus them.
    public func mirror(to file: URL) throws {
        let advanced = state.withLock { state in
            state.mirrors.append(file)
            return state.advanced
        }
        try Self.write(advanced, to: file)
    }

    private static func write(_ advanced: Duration, to file: URL) throws {
        let parts = advanced.components
        let seconds = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        try Data("\(seconds)\n".utf8).write(to: file, options: .atomic)
    }

    /// Moves time to the earliest sleeper's deadline and wakes it; returns `false` when nobody sleeps.
    @discardableResult
    public func advanceToNextDeadline() -> Bool {
        guard let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) else { return false }
        advance(by: now.duration(to: next))
        return true
    }

    /// How many sleeps have begun on the clock, woken or not.
    public var sleepsBegun: Int { state.withLock { $0.sleepsBegun } }

    /// Calls `watcher` each time a task begins to sleep on the clock (from that task).
    public func whenSleepBegins(_ watcher: @escaping @Sendable () -> Void) {
        state.withLock { $0.watchers.append(watcher) }
    }

    /// Waits until at least `count` tasks sleep on the clock: woken by the sleep that makes them
    /// `count`. Throws after `timeout` (a hang guard).
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(60)) async throws {
        let id = UUID()
        let reached = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
                    let now = self.state.withLock { state -> Bool in
                        if state.sleepers.count >= count || state.expiredWaits.contains(id) { return true }
                        state.sleeperWaits.append((id, count, wake))
                        return false
                    }
                    if now { wake.resume() }
                }
                return true
            }
            group.addTask {
                try? await ContinuousClock().sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            if !first {
                // The waiter above is still parked: let it go, so the group can end.
                let waits = self.state.withLock { state in
                    state.expiredWaits.insert(id)
                    defer { state.sleeperWaits.removeAll { $0.id == id } }
                    return state.sleeperWaits.filter { $0.id == id }.map(\.wake)
                }
                waits.forEach { $0.resume() }
            }
            return first
        }
        guard reached else { throw CancellationError() }
    }
}
