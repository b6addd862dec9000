import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// TCP ports on 127.0.0.1, chosen by the kernel (a socket bound to port 0): never a port a test names.
public enum Loopback {
    /// A port nothing listens on now: bound with port 0, read, closed. Another process may take it
    /// before it is used (a daemon that binds it itself retries on another); where nothing is to
    /// listen on it, hold it instead (``HeldPort/any()``).
    public static func freePort() throws -> Int {
        let (socket, port) = try boundSocket(listening: false)
        close(socket)
        return port
    }

    /// A TCP socket bound to a free loopback port, listening if `listening`, and its port. The caller
    /// closes it.
    public static func boundSocket(listening: Bool) throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw ChildProcess.Failure(description: "socket: \(String(cString: strerror(errno)))")
        }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound =
            bind(socket, toPort: 0)
            && withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) == 0 }
            }
        guard bound, !listening || listen(socket, 16) == 0 else {
            let problem = String(cString: strerror(errno))
            close(socket)
            throw ChildProcess.Failure(description: "bind or listen on 127.0.0.1: \(problem)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A loopback port kept from everyone else by a socket bound to it that does not listen: a
/// connection to it is refused at once, as to a stopped server's, and the kernel gives it to no
/// bind to port 0 and no outgoing connection until it is let go (``release()``, or the end of the
/// value). A stopped test server holds its port this way until it restarts, so a server or a
/// connection of a test running beside it can never take the address its clients remember.
///
/// The socket is bound with `SO_REUSEADDR` and `SO_REUSEPORT`, which is what lets it share the port
/// both ways: bound beside a server of this user still listening with `SO_REUSEPORT` (the development
/// server sets it), so the port is never free when that server stops; and the next server, binding
/// with `SO_REUSEADDR` (as the development server does), binds and listens beside it, so the holder
/// lets go only once that server listens. (A holder with `SO_REUSEPORT` alone kept the next server
/// out: each restart had to close it first, and a child process being spawned at that moment still
/// held a copy of it, so the restart failed with `Address already in use`.)
public final class HeldPort: Sendable {
    /// The port held.
    public let port: Int
    private let socket: Mutex<Int32?>

    private init(socket: Int32, port: Int) {
        self.port = port
        self.socket = Mutex(socket)
    }

    /// Holds a free port chosen by the kernel: an address where nothing listens, and nothing will.
    public static func any() throws -> HeldPort {
        let (socket, port) = try Loopback.boundSocket(listening: false)
        return HeldPort(socket: socket, port: port)
    }

    /// Holds `port`: beside a server that still listens on it (see above), or after one let go of it,
    /// even while connections it closed are in TIME_WAIT on it.
    public static func hold(_ port: Int) throws -> HeldPort {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw ChildProcess.Failure(description: "socket: \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        for option in [SO_REUSEADDR, SO_REUSEPORT] {
            setsockopt(socket, SOL_SOCKET, option, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        guard Loopback.bind(socket, toPort: port) else {
            let problem = String(cString: strerror(errno))
            close(socket)
            throw ChildProcess.Failure(description: "port \(port) on 127.0.0.1 could not be held: \(problem)")
        }
        return HeldPort(socket: socket, port: port)
    }

    /// Lets the port go (for the server that restarts on it). Releasing twice is harmless.
    public func release() {
        socket.withLock { socket in
            if let held = socket { close(held) }
            socket = nil
        }
    }

    deinit { release() }
}

extension Loopback {
    /// Binds `socket` to 127.0.0.1:`port`; `false` with `errno` set when it cannot.
    public static func bind(_ socket: Int32, toPort port: Int) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether a connection to 127.0.0.1:`port` is refused now (nothing listens there).
    public static func refuses(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        return !connected && errno == ECONNREFUSED
    }
}
