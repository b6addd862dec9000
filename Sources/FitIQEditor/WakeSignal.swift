import Synchronization

/// A request one task waits for: ``signal()`` wakes the waiter at once, or, with nobody waiting, the
/// next ``wait()`` returns without waiting. Requests made before a wake count as one.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: (id: Int, continuation: CheckedContinuation<Void, Never>)?
        var nextID = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Wakes the waiter, or the next one.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// Forgets a request not waited for yet (the work it asks for is about to start anyway).
    func clear() {
        state.withLock { $0.pending = false }
    }

    /// Returns once signalled (at once if a request is pending), or when the task is cancelled.
    /// One waiter at a time.
    func wait() async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    // Cancelled before it waited: the request, if one comes, is left for the next wait.
                    if Task.isCancelled { return true }
                    precondition(state.waiter == nil, "one waiter at a time")
                    state.waiter = (id, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume()
        }
    }

    /// Returns once signalled or once `clock` reaches `duration` from now, whichever comes first.
    func wait(orFor duration: Duration, on clock: some Clock<Duration>) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await clock.sleep(for: duration) }
            await group.next()
            group.cancelAll()
        }
    }
}
