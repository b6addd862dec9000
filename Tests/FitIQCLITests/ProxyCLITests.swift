import FitIQTestSupport
import Foundation
import Testing

/// The network as Linux tools see it: a sync through a real HTTP proxy (Debian's tinyproxy) and past
/// it with `no_proxy`, a proxy that is not there named without its password, and a TLS server (socat
/// in front of the development server) trusted only once `SSL_CERT_FILE` names its CA.
@Suite(.timeLimit(.minutes(3)))
struct ProxyCLITests {
    @Test func aSyncGoesThroughTheProxyInTheEnvironmentAndPastItForNoProxy() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                let proxy = try await Daemon.tinyproxy(in: cli.folder)
                defer { Task { await proxy.stop() } }
                var through = cli
                through.runner.environment["http_proxy"] = "http://127.0.0.1:\(proxy.port)"
                #expect(try await through.register().status == 0)
                let logged = try await through.run(["weight", "set", "72.4"])
                #expect(logged.stdout.contains("Saved and synced."), "\(logged)")
                let base = server.url.hasSuffix("/") ? String(server.url.dropLast()) : server.url
                let requests = try await proxy.requestsLogged(to: base, mark: "first")
                #expect(requests.contains { $0.contains("POST \(base)/api/v1/auth/register") }, "\(requests)")
                #expect(requests.contains { $0.contains("POST \(base)/api/v1/progress") }, "\(requests)")

                // no_proxy lists the server: the same requests go past the proxy, which sees none.
                var past = through
                past.runner.environment["no_proxy"] = "127.0.0.1"
                #expect(try await past.run(["weight", "set", "72.6"]).stdout.contains("Saved and synced."))
                let after = try await proxy.requestsLogged(to: base, mark: "second")
                // Everything up to the first barrier, and the barrier itself: nothing else.
                #expect(after.count == requests.count + 1, "\(after)")
            }
        }
    }

    @Test func aProxyThatIsNotThereIsNamedWithoutItsPassword() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // Held, not freed: no other test's server can take the address meanwhile.
                let absent = try HeldPort.any()
                defer { absent.release() }
                let port = absent.port
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
    }

    /// A proxy that cannot reach the server answers with a page of its own, or cuts the request off:
    /// either way the message names the proxy.
    @Test func aProxyThatCannotReachTheServerIsNamed() async throws {
        try await CLIHarness.with { cli in
            // Kept to the end: it holds the port, so nothing else answers there.
            let away = try await cli.registerOnAServerThatGoesAway()
            defer { withExtendedLifetime(away) {} }
            let proxy = try await Daemon.tinyproxy(in: cli.folder)
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
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                let folder = cli.folder
                let tool = CommandRunner(
                    executable: URL(fileURLWithPath: "/usr/bin/openssl"), environment: ["PATH": "/usr/bin:/bin"])
                let path = { (name: String) in folder.appendingPathComponent(name).path }
                for arguments in [
                    [
                        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out",
                        path("ca.pem"),
                        "-days", "2", "-subj", "/CN=FitIQ test CA",
                    ],
                    [
                        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", path("server.key"), "-out",
                        path("server.csr"),
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
                let upstream = try #require(URL(string: server.url)?.port)
                let tls = try await Daemon.tls(
                    certificate: folder.appendingPathComponent("server.pem"),
                    key: folder.appendingPathComponent("server.key"),
                    upstream: upstream)
                defer { Task { await tls.stop() } }
                cli.server = "https://127.0.0.1:\(tls.port)"

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
}
