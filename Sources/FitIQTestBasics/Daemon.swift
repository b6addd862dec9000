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

    /// Starts the daemon `arguments(port)` describes on a port found free, as ``start(_:port:ready:)``
    /// does; a port taken between being found free and being bound (the race every free-port search
    /// has) costs another try on another port, not a failed test.
    static func startOnFreePort(
        _ arguments: (Int) throws -> [String], ready: @escaping @Sendable (String) -> Bool
    ) async throws -> Daemon {
        var problem: (any Error)?
        for _ in 0..<3 {
            let port = try Loopback.freePort()
            do { return try await start(try arguments(port), port: port, ready: ready) } catch { problem = error }
        }
        throw problem ?? ChildProcess.Failure(description: "no daemon started")
    }

    public func stop() async {
        child.signal(SIGTERM)
        await child.exit(within: .seconds(20))
    }

    /// Debian's tinyproxy on a free port with a configuration of its own in `folder`, logging every
    /// request to its output.
    public static func tinyproxy(in folder: URL) async throws -> Daemon {
        try await startOnFreePort({ port in
            let config = folder.appendingPathComponent("tinyproxy-\(port).conf")
            try """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            LogLevel Info
            MaxClients 20
            Allow 127.0.0.1
            DisableViaHeader Yes

            """.write(to: config, atomically: true, encoding: .utf8)
            return ["/usr/bin/tinyproxy", "-d", "-c", config.path]
        }) { $0.contains("Accepting connections") }
    }

    /// The requests a tinyproxy (``tinyproxy(in:)``) logged before the barrier `GET <server>/health?<mark>`,
    /// sent through it now: the proxy logs in order, so every request made before is in what it wrote by then.
    public func requestsLogged(to server: String, mark: String) async throws -> [String] {
        let barrier = "\(server)/health?\(mark)"
        let curl = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/curl"), environment: [:])
        let sent = try await curl.run(["-sS", "-o", "/dev/null", "-x", "http://127.0.0.1:\(port)", barrier])
        guard sent.status == 0 else { throw ChildProcess.Failure(description: "the barrier request failed: \(sent)") }
        let lines = try await child.waitForLines { $0.contains { $0.contains("GET \(barrier)") } }
        return lines.prefix { !$0.contains("GET \(barrier)") }.filter { $0.contains("Request (") }
    }

    /// socat speaking TLS on a free loopback port with `certificate` and `key` (PEM files), in front of
    /// `upstream` (a loopback port).
    public static func tls(certificate: URL, key: URL, upstream: Int) async throws -> Daemon {
        try await startOnFreePort({ port in
            [
                "/usr/bin/socat", "-d", "-d",
                "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,verify=0,cert=\(certificate.path),key=\(key.path)",
                "TCP:127.0.0.1:\(upstream)",
            ]
        }) { $0.contains("listening on") }
    }
}
