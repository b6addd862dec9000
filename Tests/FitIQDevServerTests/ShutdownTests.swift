import FitIQCore
import FitIQTestSupport
import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing

@testable import FitIQDevServer

#if canImport(Glibc)
    import Glibc
#endif

/// A server ended while clients keep connecting serves or closes every connection it took: none is
/// left half taken, which SwiftNIO answers by stopping the whole process (``ConnectionGate``).
struct ShutdownTests {
    /// The gate counts the connections it let in until each reaches the server's loop, and its close
    /// returns once none is left; after it, no connection is let in.
    @Test func theGateClosesOnceEveryConnectionLetInHasReachedTheLoop() async {
        let gate = ConnectionGate()
        #expect(gate.admit() && gate.admit())
        let finished = Flag(false)
        let closing = Task {
            await gate.close(waitingAtMost: .seconds(60))
            finished.isSet = true
        }
        // Until the close has shut the gate, a connection may still come in.
        while gate.admit() { gate.release() }
        gate.release()
        // One connection let in has not reached the loop: the close cannot have returned.
        #expect(!finished.isSet)
        gate.release()
        await closing.value
        #expect(finished.isSet)
        #expect(!gate.admit())
    }

    /// Twenty servers, each cancelled while three threads keep opening connections to it, once its
    /// gate has closed (a cancel is how a test ends a server whose handler never answers): the process
    /// lives on. Cancelled without the gate, a connection taken half way stopped it within a few.
    @Test func aServerCancelledWhileClientsConnectTakesNoConnectionHalfWay() async throws {
        for _ in 0..<20 {
            let gate = ConnectionGate()
            let (ports, listening) = AsyncStream.makeStream(of: Int.self)
            let application = Application(
                router: Router(), server: .http1(through: gate),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { listening.yield($0.localAddress?.port ?? 0) },
                logger: Logger(label: "storm", factory: { _ in SwiftLogNoOpLogHandler() }))
            let running = Task { try await application.run() }
            var bound = ports.makeAsyncIterator()
            let port = try #require(await bound.next().map(UInt16.init))
            let connecting = Flag(true)
            let (busy, signal) = AsyncStream<Void>.makeStream()
            let opened = Counter()
            // Threads of their own: a blocking connect must not hold a thread of the task pool.
            let clients = (0..<3).map { _ in
                Task {
                    try await OwnThread.run {
                        while connecting.isSet {
                            guard Self.connectAndClose(port: port) else { continue }
                            if opened.add() == 12 { signal.finish() }
                        }
                    }
                }
            }
            // The cancel meets clients that are connecting.
            for await _ in busy {}
            await gate.close(waitingAtMost: .seconds(60))
            running.cancel()
            _ = await running.result
            connecting.isSet = false
            for client in clients { try await client.value }
        }
    }

    /// A count shared with the clients' threads.
    private final class Counter: Sendable {
        private let value = Mutex(0)
        /// Adds one; returns the new count.
        func add() -> Int {
            value.withLock {
                $0 += 1; return $0
            }
        }
    }

    /// A flag shared with the clients' threads.
    private final class Flag: Sendable {
        private let value: Mutex<Bool>
        init(_ value: Bool) { self.value = Mutex(value) }
        var isSet: Bool {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Opens a TCP connection to 127.0.0.1:`port` and closes it; whether it was accepted.
    private static func connectAndClose(port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
