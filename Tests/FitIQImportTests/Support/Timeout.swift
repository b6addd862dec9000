import Foundation
import Synchronization

/// The guarded work did not finish in time.
struct TimedOut: Error, CustomStringConvertible {
    var seconds: Double
    var description: String { "did not finish within \(seconds) s" }
}

/// Runs `body`, or throws ``TimedOut`` after `seconds` (a guard against hangs, not a speed check).
///
/// Unlike a task-group race this returns even if `body` never reacts to cancellation: a read stuck
/// in a loop must fail the test, not hang the test run.
func withTimeout<T: Sendable>(
    seconds: Double = 60, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let pending = Locked<CheckedContinuation<T, any Error>?>(continuation)
        let finish: @Sendable (Result<T, any Error>) -> Void = { result in
            pending.withLock { waiting in
                waiting?.resume(with: result)
                waiting = nil
            }
        }
        let work = Locked<Task<Void, Never>?>(nil)
        let timer = Task {
            do {
                try await Task.sleep(for: .seconds(seconds))
            } catch {
                return  // the work finished first
            }
            work.withLock { $0?.cancel() }
            finish(.failure(TimedOut(seconds: seconds)))
        }
        let task = Task {
            do {
                finish(.success(try await body()))
            } catch {
                finish(.failure(error))
            }
            timer.cancel()
        }
        work.withLock { $0 = task }
    }
}
