#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a `pthread_mutex_t`, for what one thread hands to another: the session's requests,
/// made on the caller's thread and taken by the libcurl thread.
///
/// Used where a `Synchronization.Mutex` would do but ThreadSanitizer must see the handoff:
/// ThreadSanitizer intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so what a thread wrote
/// before it unlocked is ordered before what the next owner reads, whether the lock was contended or
/// not. A contended `Mutex` is handed over in the standard library's uninstrumented slow path, which
/// ThreadSanitizer does not see. The lock and the value each live at an address of their own that
/// never moves, as a `Mutex`'s do, so a `withLock` costs what a `Mutex`'s costs: no exclusivity check,
/// one lock and one unlock.
final class PthreadMutex<State>: @unchecked Sendable {  // `state` is touched under `mutex` alone.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

    init(_ initial: State) {
        pthread_mutex_init(mutex, nil)
        state.initialize(to: initial)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
