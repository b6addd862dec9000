import FitIQTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The network as Linux tools see it: a sync through a real HTTP proxy (Debian's tinyproxy) and past
/// it with `no_proxy`, a proxy that is not there named without its password, and a TLS server (socat
/// in front of the development server) trusted only once `SSL_CERT_FILE` names its CA.
@Suite(.timeLimit(.minutes(3)))
struct ProxyCLITests {
    /// A program of the test running in the background until ``stop()``.
    final class Daemon: Sendable {
        let process: Process
        let port: Int
        private let exited: Task<Void, Never>

        private init(process: Process, port: Int, exited: Task<Void, Never>) {
            self.process = process
            self.port = port
            self.exited = exited
        }

        /// Starts `arguments` and returns once something accepts connections on `port`.
        static func start(_ arguments: [String], port: Int, log: URL) async throws -> Daemon {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let output = try FileHandle(forWritingTo: log)
            process.standardOutput = output
            process.standardError = output
            process.standardInput = FileHandle.nullDevice
            let (ended, ending) = AsyncStream.makeStream(of: Void.self)
            process.terminationHandler = { _ in ending.finish() }
            try process.run()
            let daemon = Daemon(process: process, port: port, exited: Task { for await _ in ended {} })
            let deadline = ContinuousClock.now + .seconds(10)
            // Waits for the port to accept (the state wanted), with a deadline.
            while !accepts(port) {
                guard process.isRunning, ContinuousClock.now < deadline else {
                    await daemon.stop()
                    let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                    throw Failure(text: "\(arguments[0]) did not listen on \(port): \(said)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            return daemon
        }

        func stop() async {
            if process.isRunning { process.terminate() }
            await exited.value
        }

        /// A port nothing listens on now (the kernel's choice for a socket bound to port 0).
        static func freePort() throws -> Int {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
                }
            }
            guard bound else { throw Failure(text: "no free port") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        static func accepts(_ port: Int) -> Bool {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    /// tinyproxy on a free port with a configuration of its own, logging every request.
    static func tinyproxy(in folder: URL) async throws -> (Daemon, log: URL) {
        let port = try Daemon.freePort()
        let log = folder.appendingPathComponent("tinyproxy-\(port).log")
        let config = folder.appendingPathComponent("tinyproxy-\(port).conf")
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        LogFile "\(log.path)"
        LogLevel Info
        MaxClients 20
        Allow 127.0.0.1
        DisableViaHeader Yes

        """.write(to: config, atomically: true, encoding: .utf8)
        let daemon = try await Daemon.start(
            ["/usr/bin/tinyproxy", "-d", "-c", config.path], port: port,
            log: folder.appendingPathComponent("tinyproxy-\(port).out"))
        return (daemon, log)
    }

    @Test func aSyncGoesThroughTheProxyInTheEnvironmentAndPastItForNoProxy() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.start()
            defer { Task { await server.stop() } }
            cli.server = server.url
            let (proxy, log) = try await Self.tinyproxy(in: cli.folder)
            defer { Task { await proxy.stop() } }
            var through = cli
            through.runner.environment["http_proxy"] = "http://127.0.0.1:\(proxy.port)"
            #expect(try await through.register().status == 0)
            let logged = try await through.run(["weight", "set", "72.4"])
            #expect(logged.stdout.contains("Saved and synced."), "\(logged)")
            let requests = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("Request (") }
            let base = server.url.hasSuffix("/") ? String(server.url.dropLast()) : server.url
            #expect(requests.contains { $0.contains("POST \(base)/api/v1/auth/register") }, "\(requests)")
            #expect(requests.contains { $0.contains("POST \(base)/api/v1/progress") }, "\(requests)")

            // no_proxy lists the server: the same requests go past the proxy, which sees none.
            var past = through
            past.runner.environment["no_proxy"] = "127.0.0.1"
            let before = requests.count
            #expect(try await past.run(["weight", "set", "72.6"]).stdout.contains("Saved and synced."))
            let after = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("Request (") }.count
            #expect(after == before)
        }
    }

    @Test func aProxyThatIsNotThereIsNamedWithoutItsPassword() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.start()
            defer { Task { await server.stop() } }
            cli.server = server.url
            #expect(try await cli.register().status == 0)
            let port = try Daemon.freePort()
            var offline = cli
            offline.runner.environment["http_proxy"] = "http://ana:s3cret-pass@127.0.0.1:\(port)"
            let result = try await offline.run(["weight", "set", "72.4"])
            let said = result.stdout + result.stderr
            #expect(said.contains("the proxy http://127.0.0.1:\(port) cannot be reached"), "\(result)")
            #expect(!said.contains("s3cret"), "\(result)")
            let status = try await offline.run(["status"])
            #expect(!(status.stdout + status.stderr).contains("s3cret"), "\(status)")
            let logFile = cli.folder.appendingPathComponent("state/fitiq/fitiq-tui.log")
            let written = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            #expect(!written.contains("s3cret") && !written.contains(CLIHarness.apiKey))
        }
    }

    /// A proxy that cannot reach the server answers with a page of its own, or cuts the request off:
    /// either way the message names the proxy.
    @Test func aProxyThatCannotReachTheServerIsNamed() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.start()
            cli.server = server.url
            #expect(try await cli.register().status == 0)
            await server.stop()
            let (proxy, _) = try await Self.tinyproxy(in: cli.folder)
            defer { Task { await proxy.stop() } }
            cli.runner.environment["http_proxy"] = "http://127.0.0.1:\(proxy.port)"
            let named = "the proxy http://127.0.0.1:\(proxy.port)"
            let shown = try await cli.run(["profile", "show"])
            // tinyproxy answers with its page, or closes with nothing when it catches the server stopping.
            #expect(shown.stderr.contains(named), "\(shown)")
            let logged = try await cli.run(["weight", "set", "72.4"])
            #expect((logged.stdout + logged.stderr).contains(named), "\(logged)")
        }
    }

    /// socat speaks TLS in front of the development server with a certificate of a CA made here:
    /// refused until `SSL_CERT_FILE` names that CA.
    @Test func aServerSignedByACAOfItsOwnIsTrustedOnlyThroughSSLCertFile() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.start()
            defer { Task { await server.stop() } }
            let folder = cli.folder
            let tool = CommandRunner(
                executable: URL(fileURLWithPath: "/usr/bin/openssl"), environment: ["PATH": "/usr/bin:/bin"])
            let path = { (name: String) in folder.appendingPathComponent(name).path }
            for arguments in [
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
                    "-days", "2", "-subj", "/CN=FitIQ test CA",
                ],
                [
                    "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out", path("server.csr"),
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ],
                [
                    "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
                    "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-copy_extensions", "copy",
                ],
            ] {
                let made = try await tool.run(arguments)
                #expect(made.status == 0, "openssl \(arguments.prefix(2)): \(made)")
            }
            let port = try Daemon.freePort()
            let upstream = try #require(URL(string: server.url)?.port)
            let tls = try await Daemon.start(
                [
                    "/usr/bin/socat",
                    "OPENSSL-LISTEN:\(port),bind=127.0.0.1,reuseaddr,fork,verify=0,cert=\(folder.path)/server.pem,key=\(folder.path)/server.key",
                    "TCP:127.0.0.1:\(upstream)",
                ], port: port, log: folder.appendingPathComponent("socat.log"))
            defer { Task { await tls.stop() } }
            cli.server = "https://127.0.0.1:\(port)"

            let refused = try await cli.register()
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains("TLS verification failed"), "\(refused)")
            var trusting = cli
            trusting.runner.environment["SSL_CERT_FILE"] = folder.appendingPathComponent("ca.pem").path
            let registered = try await trusting.register()
            #expect(registered.status == 0, "\(registered)")
            #expect(try await trusting.run(["weight", "set", "72.4"]).stdout.contains("Saved and synced."))
        }
    }
}
