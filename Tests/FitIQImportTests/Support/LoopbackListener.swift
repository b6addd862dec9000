import FitIQTestBasics
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 on a free port, to prove that nothing connects to it.
///
/// The kernel completes handshakes into the listen backlog without `accept`, so any connection
/// attempt made while the socket is open is counted by ``connectionCount()``.
final class LoopbackListener: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let (descriptor, port) = try Loopback.boundSocket(listening: true)
        self.descriptor = descriptor
        self.port = UInt16(port)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    /// The URL prefix to hand to the generator's `--ssrf-url`.
    var url: String { "http://127.0.0.1:\(port)/" }

    /// How many connections are waiting (accepting and closing them).
    func connectionCount() -> Int {
        var count = 0
        while true {
            let connection = accept(descriptor, nil, nil)
            if connection < 0 { return count }
            close(connection)
            count += 1
        }
    }
}
