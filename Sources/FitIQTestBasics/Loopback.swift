import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// TCP ports on 127.0.0.1, chosen by the kernel (a socket bound to port 0): never a port a test names.
public enum Loopback {
    /// A port nothing listens on now: bound with port 0, read, closed.
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
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound, !listening || listen(socket, 16) == 0 else {
            let problem = String(cString: strerror(errno))
            close(socket)
            throw ChildProcess.Failure(description: "bind or listen on 127.0.0.1: \(problem)")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }
}
