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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && listen(descriptor, 16) == 0
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
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
