import Foundation
import Synchronization

/// A clock that moves only when a test advances it; sleepers wake when their deadline is reached.
public final class ManualClock: Clock, Sendable {
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
    }

    private let state = Mutex(State())
    /// The wall-clock date at the clock's start.
    public let start: Date

    public init(start: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.start = start
    }

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// The wall-clock date now: `start` plus the time advanced.
    public func date() -> Date {
        let offset = now.offset.components
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
                let resumeNow = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
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

    /// Waits (yielding, not sleeping) until at least `count` tasks sleep on the clock.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        let limit = ContinuousClock.now.advanced(by: timeout)
        while sleeperCount < count {
            guard ContinuousClock.now < limit else { throw CancellationError() }
            await Task.yield()
        }
    }
}
