import FitIQCore
import Foundation
import Synchronization

/// A clock that moves only when a test advances it; sleepers wake when their deadline is reached. Its
/// instants are dates from ``start`` on (``date(of:)``).
public final class ManualClock: DatedClock {
    /// An instant of the manual clock: an offset from its start.
    public struct Instant: InstantProtocol {
        public var offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UUID
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        /// How many sleeps began (woken or not).
        var sleepsBegun = 0
        /// Told each time a sleep begins.
        var watchers: [@Sendable () -> Void] = []
        /// Tasks waiting for a number of sleepers (``waitForSleepers(_:timeout:)``).
        var sleeperWaits: [(id: UUID, count: Int, wake: CheckedContinuation<Void, Never>)] = []
        /// Waits whose time ran out, in case one had not parked yet.
        var expiredWaits: Set<UUID> = []
    }

    private let state = Mutex(State())
    /// The wall-clock date at the clock's start.
    public let start: Date

    public init(start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.start = start
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// The date of `instant`: `start` plus its offset.
    public func date(of instant: Instant) -> Date {
        let offset = instant.offset.components
        return start.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
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
                    if deadline <= state.now { return (.success(()), state.watchers, []) }
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

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
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
