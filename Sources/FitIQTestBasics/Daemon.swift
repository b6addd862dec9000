import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test runs in the background on a loopback port (tinyproxy, socat) until ``stop()``, its
/// output read line by line (``ChildProcess``).
public struct Daemon: Sendable {
    public let child: ChildProcess
    public let port: Int

    /// Starts `arguments` and returns once it says it listens: a line that `ready` accepts.
    public static func start(_ arguments: [String], port: Int, ready: @escaping @Sendable (String) -> Bool)
        async throws -> Daemon
    {
        let child = try ChildProcess(arguments, output: .lines)
        do {
            try await child.waitForLines(within: .seconds(20)) { $0.contains(where: ready) }
        } catch {
            await child.exit(within: .seconds(5))
            throw ChildProcess.Failure(description: "\(arguments[0]) did not listen on \(port): \(error)")
        }
        return Daemon(child: child, port: port)
    }

    public func stop() async {
        child.signal(SIGTERM)
        await child.exit(within: .seconds(20))
    }

    /// socat speaking TLS on a free loopback port with `certificate` and `key` (PEM files), in front of
    /// `upstream` (a loopback port).
    public static func tls(certificate: URL, key: URL, upstream: Int) async throws -> Daemon {
        let port = try Loopback.freePort()
        return try await start(
            [
                "/usr/bin/socat", "-d", "-d",
                "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,verify=0,cert=\(certificate.path),key=\(key.path)",
                "TCP:127.0.0.1:\(upstream)",
            ], port: port
        ) { $0.contains("listening on") }
    }
}
