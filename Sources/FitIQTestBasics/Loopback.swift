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

    /// Holds `port`. With `alongside`, while a server of this user still listens on it with
    /// `SO_REUSEPORT` (the development server sets it): bound with that option alone, so the port is
    /// never free, even for a moment, when the server stops. Without, after a server let go of it:
    /// bound without `SO_REUSEADDR` where it can be (no one else can bind it even with that option);
    /// when connections the server closed are still in TIME_WAIT on it, with the option (a bind to port
    /// 0 still never gets it).
    public static func hold(_ port: Int, alongside: Bool = false) throws -> HeldPort {
        try hold(port, trying: alongside ? [[SO_REUSEPORT]] : [[], [SO_REUSEADDR]])
    }

    /// Holds `port` for a server about to bind it, beside a holder of it (``hold(_:alongside:)``, bound
    /// with `SO_REUSEPORT`) where there is one: with `SO_REUSEPORT` and `SO_REUSEADDR`, the option the
    /// development server's listening socket sets before it binds, so the server binds beside this
    /// socket, which does not listen. Taken while a server restarts, it keeps the port from every bind
    /// to port 0 and every outgoing connection until the new server listens (``release()`` then).
    public static func holdForServer(_ port: Int) throws -> HeldPort {
        try hold(port, trying: [[SO_REUSEPORT, SO_REUSEADDR]])
    }

    private static func hold(_ port: Int, trying choices: [[Int32]]) throws -> HeldPort {
        var lastProblem = ""
        for options in choices {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else {
                throw ChildProcess.Failure(description: "socket: \(String(cString: strerror(errno)))")
            }
            var one: Int32 = 1
            for option in options { setsockopt(socket, SOL_SOCKET, option, &one, socklen_t(MemoryLayout<Int32>.size)) }
            if Loopback.bind(socket, toPort: port) { return HeldPort(socket: socket, port: port) }
            lastProblem = String(cString: strerror(errno))
            close(socket)
        }
        throw ChildProcess.Failure(description: "port \(port) on 127.0.0.1 could not be held: \(lastProblem)")
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
