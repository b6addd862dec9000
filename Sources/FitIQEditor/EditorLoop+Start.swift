import FitIQCore
import FitIQTUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension EditorLoop {
    /// Runs the editor until the user quits, then waits for what it leaves running (``finish()``).
    ///
    /// `open` opens the terminal on a thread of its own, which the terminal belongs to for its whole
    /// life (docs/ncurses.md "One thread"), while this task reads the account, so that the first frame
    /// comes sooner (docs/benchmarks.md "bench-startup"). It returns the screen to draw on and what gives the terminal
    /// back, which runs on that thread before this returns. `read` is told once the account is read.
    public func run(
        notice: String? = nil,
        opening open: @escaping @Sendable () throws -> (screen: any TerminalScreen, restore: () -> Void),
        read: @Sendable () -> Void = {}
    ) async throws {
        let first = FirstState()
        async let ended: Void = OwnThread.run { [self] in
            let (screen, restore) = try open()
            var state = first.take()
            state.size = screen.size
            run(on: screen, state: state)
            restore()
        }
        var state = await initialState(size: (0, 0))
        if let notice { state.message = (notice, false) }
        read()
        first.put(state)
        let failure: (any Error)?
        do {
            try await ended
            failure = nil
        } catch {
            failure = error
        }
        await finish()
        if let failure { throw failure }
    }
}

/// The editor's first state, handed from the task that reads it to the terminal's thread, which waits
/// for it once the terminal is open.
private final class FirstState: @unchecked Sendable {  // `state` is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let handed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state: AppState?

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(handed, nil)
    }

    deinit {
        pthread_cond_destroy(handed)
        pthread_mutex_destroy(mutex)
        handed.deallocate()
        mutex.deallocate()
    }

    func put(_ value: AppState) {
        pthread_mutex_lock(mutex)
        state = value
        pthread_cond_signal(handed)
        pthread_mutex_unlock(mutex)
    }

    func take() -> AppState {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let state { return state }
            pthread_cond_wait(handed, mutex)
        }
    }
}
