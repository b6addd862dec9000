import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// Lets a stopping server take no more connections before it shuts down, so that no accepted
/// connection is left unserved.
///
/// SwiftNIO hands each accepted connection to the server's loop through a stream, wrapped in an
/// `NIOAsyncChannel` whose writer must be finished; a connection accepted in the instant the server
/// closes its listening socket can be left in that stream, never served, and its writer then stops
/// the whole process ("Deinited NIOAsyncWriter without calling finish()", swift-nio issues 2637 and
/// 3481). ``close()`` shuts the gate first: new connections are closed at once, before they are
/// wrapped, and it returns once every connection already wrapped has reached the server's loop. Only
/// then does the server shut down.
public final class ConnectionGate: Sendable {
    private struct State {
        var isClosed = false
        /// Connections wrapped and not yet handed to the server's loop.
        var inFlight = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Whether a new connection may be wrapped; counts it in flight when so.
    func admit() -> Bool {
        state.withLock { state in
            guard !state.isClosed else { return false }
            state.inFlight += 1
            return true
        }
    }

    /// A connection admitted reached the server's loop, or will never reach it.
    func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Takes no more connections, and returns once those already taken have reached the server's loop,
    /// or after `limit` (a guard against a loop that ended before the stop: it would never take them).
    public func close(waitingAtMost limit: Duration) async {
        let drained = Waiter()
        let waiting = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    state.isClosed = true
                    if state.inFlight == 0 { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if done { continuation.resume() }
            }
            drained.finish()
        }
        let guardTask = Task {
            try? await Task.sleep(for: limit)
            drained.finish()
        }
        await drained.wait()
        guardTask.cancel()
        _ = waiting
    }

    /// Resumes whoever waits once ``finish()`` is called, however often.
    private final class Waiter: Sendable {
        private let state = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

        func finish() {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.done else { return nil }
                state.done = true
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.done { return true }
                    state.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }
    }
}

/// A server's connections set up as `Base` sets them up, through a ``ConnectionGate``.
struct GatedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value

    let base: Base
    let gate: ConnectionGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard gate.admit() else {
            // Closed before anything wraps it: the client meets a closed connection, as after a stop.
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        }
        let setUp = base.setup(channel: channel, logger: logger)
        // A connection whose setup failed never reaches the loop.
        setUp.whenFailure { [gate] _ in gate.release() }
        return setUp
    }

    func handle(value: Value, logger: Logger) async {
        gate.release()
        await base.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 through `gate`: a server a test stops takes no connection half way (``ConnectionGate``).
    public static func http1(through gate: ConnectionGate) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GatedChildChannel(base: HTTP1Channel(responder: responder), gate: gate) }
    }
}
