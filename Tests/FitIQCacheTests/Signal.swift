/// A one-shot signal between tasks: ``wait()`` returns once ``send()`` was called, before or after.
/// Tests use it to hand over explicitly ("I hold the lock", "let go now") instead of sleeping.
struct Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    /// Fires the signal (once is enough; later calls change nothing).
    func send() {
        continuation.finish()
    }

    /// Waits until the signal has been sent.
    func wait() async {
        for await _ in stream {}
    }
}
