import Foundation

/// The server's sources of time, injected so tests can move the clock instead of sleeping.
public struct DevServerDependencies: Sendable {
    /// The current instant, used for tokens, timestamps, ages and the default progress window.
    public var now: @Sendable () -> Date
    /// Waits for the given duration (the `--latency-ms` delay).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates dependencies from the given closures.
    public init(
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock and real sleeps.
    public static var live: DevServerDependencies {
        DevServerDependencies(
            now: { Date() },
            sleep: { duration in try await Task.sleep(for: duration) }
        )
    }
}
