#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work that blocks (a terminal waiting for keys, a file read in chunks, libcurl's loop) on a thread of
/// its own, never on a thread of Swift's cooperative pool.
public enum OwnThread {
    /// Why no thread could be made.
    public struct Unavailable: Error, CustomStringConvertible {
        public let code: Int32
        public var description: String { "no thread could be started (error \(code))" }
    }

    /// Starts `body` on a new detached thread; throws when the system makes none.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(Unavailable) {
        final class Work {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let made = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }
                Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
                return nil
            }, context)
        guard made == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            throw Unavailable(code: made)
        }
        #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
        #else
            pthread_detach(thread)
        #endif
    }

    /// Runs `body` on a new thread and returns what it returns (or throws what it throws).
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            do {
                try start { continuation.resume(with: Result { try body() }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
