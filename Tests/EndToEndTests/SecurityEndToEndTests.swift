import FitIQDevServer
import FitIQTestSupport
import Foundation
import Testing

/// Secrets stay secret. The built programs are driven as a user drives them (register, sign out and in,
/// every command, a health import, the editor and the demo in tmux), every secret involved is
/// collected (API key, password, access and refresh tokens, the demo's own key and password), and
/// none may be found in the log, in a cache file other than the session file, in any output or screen,
/// or in the argv of any process; the session file is 0600 in a 0700 folder. Plain `http://` is for
/// this machine only, and TLS verification cannot be turned off.
@Suite(.timeLimit(.minutes(5)))
struct SecurityEndToEndTests {
    @Test func noSecretIsWrittenPrintedOrPassedOnTheCommandLine() async throws {
        try await EndToEnd.with { e2e in
            let apiKey = "sec-key-\(UUID().uuidString)"
            let password = "sec-pw-\(UUID().uuidString)"
            var secrets = ["API key": apiKey, "password": password]
            var configuration = TestDevServer.configuration(database: e2e.database, accessTokenTTL: 30)
            configuration.apiKey = apiKey
            // The server's clock follows the wall clock and can be moved on: tokens expire without waiting.
            let clock = ManualClock.followingTheWallClock()
            try await TestDevServer.with(configuration, clock: clock) { server in
                let temporary = e2e.folder.appendingPathComponent("tmp")
                try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
                let runner = e2e.runner {
                    $0["FITIQ_API_KEY"] = apiKey
                    $0["TMPDIR"] = temporary.path
                }
                let environment = runner.environment
                var seen: [(place: String, text: String)] = []
                func run(_ arguments: [String], input: String? = nil) async throws -> CommandRunner.Result {
                    seen.append(
                        (
                            "argv of fitiq-tui \(arguments.prefix(2).joined(separator: " "))",
                            arguments.joined(separator: " ")
                        ))
                    let result = try await runner.run(arguments, input: input)
                    seen.append(
                        ("output of \(arguments.prefix(2).joined(separator: " "))", result.stdout + result.stderr))
                    return result
                }

                let identity = ["--email", "sec@example.com"]
                let registered = try await run(
                    ["register", "--server", server.url] + identity + [
                        "--name", "Sec", "--date-of-birth", "1990-01-01",
                    ],
                    input: password + "\n")
                #expect(registered.status == 0, "\(registered)")
                #expect(try await run(["logout"]).status == 0)
                #expect(
                    try await run(["login", "--server", server.url] + identity, input: password + "\n").status == 0)
                let export = e2e.folder.appendingPathComponent("export.zip")
                let made = try await RepositoryTools.makeHealthExport(["--zip", "--mb", "1", "--out", export.path])
                #expect(made.status == 0, "\(made)")
                for arguments in [
                    ["whoami", "--json"], ["profile", "show", "--json"], ["profile", "set", "--bio", "x"],
                    ["height", "set", "181"], ["height", "history", "--csv"], ["sync", "--wait"], ["status", "--json"],
                    ["import-health", export.path], ["profile", "show"],
                ] {
                    // Access tokens live 30 s: moved past them, the server refuses them and the client refreshes.
                    if arguments[0] == "sync" { clock.advance(by: .seconds(31)) }
                    #expect(try await run(arguments).status == 0, "\(arguments)")
                }

                // The session file: 0600 in a 0700 folder; its tokens join the secrets.
                let state = URL(fileURLWithPath: environment["XDG_STATE_HOME"] ?? "")
                let sessions = Self.files(below: state).filter { $0.lastPathComponent == "session.json" }
                #expect(sessions.count == 1, "\(sessions)")
                for session in sessions {
                    #expect(try Self.mode(of: session) == 0o600)
                    #expect(try Self.mode(of: session.deletingLastPathComponent()) == 0o700)
                    secrets.merge(try Self.tokens(in: session)) { $1 }
                }
                #expect(secrets.keys.contains { $0.hasPrefix("token") }, "\(secrets.keys.sorted())")

                // The editor: no secret in the argv of anything it runs.
                let tui = try e2e.openTUI(server: server, extraEnvironment: ["FITIQ_API_KEY": apiKey])
                defer { tui.kill() }
                let editor = try await tui.waitFor("Sec")
                seen.append(("the editor's screen", editor))
                seen += ProcessTree.descendants(of: tui.panePID).map { ("argv of \($0)", Self.proc($0, "cmdline")) }
                try await tui.send("q")
                #expect(try await e2e.waitForExitStatus(of: tui) == 0)

                // The demo: its server gets the demo's key and password in its environment, never in argv.
                let demo = try e2e.openTUI(
                    arguments: ["demo"], extraEnvironment: ["FITIQ_API_KEY": apiKey, "TMPDIR": temporary.path])
                defer { demo.kill() }
                let demoScreen = try await demo.waitFor("demo@fitiq.dev")
                let tree = ProcessTree.descendants(of: demo.panePID)
                for pid in tree {
                    for item in Self.proc(pid, "environ").split(separator: "\0") {
                        for (variable, name) in [
                            ("FITIQ_DEV_API_KEY=", "demo API key"), ("FITIQ_DEV_DEMO_PASSWORD=", "demo password"),
                        ] where item.hasPrefix(variable) {
                            secrets[name] = String(item.dropFirst(variable.count))
                        }
                    }
                    seen.append(("argv of \(ProcessTree.name(of: pid) ?? "\(pid)")", Self.proc(pid, "cmdline")))
                }
                #expect(secrets["demo API key"] != nil && secrets["demo password"] != nil)
                for session in Self.files(below: temporary) where session.lastPathComponent == "session.json" {
                    for (name, value) in try Self.tokens(in: session) { secrets["demo " + name] = value }
                }
                seen.append(("the demo's screen", demoScreen))
                try await demo.send("q")
                #expect(try await e2e.waitForExitStatus(of: demo) == 0)

                // Every file of the account but the session file.
                let home = e2e.folder.appendingPathComponent("home")
                let files = Self.files(below: home).filter { $0.lastPathComponent != "session.json" }
                #expect(files.contains { $0.lastPathComponent == "fitiq-tui.log" && !Self.text(of: $0).isEmpty })
                seen += files.map { ("file \($0.path.dropFirst(home.path.count))", Self.text(of: $0)) }

                // The scan can fail: a planted secret is found.
                let planted = secrets.filter { "log line \(password) end".contains($0.value) }.map(\.key)
                #expect(planted == ["password"])
                for (place, text) in seen {
                    let leaked = secrets.filter { !$0.value.isEmpty && text.contains($0.value) }.map(\.key)
                    #expect(leaked.isEmpty, "a secret in \(place): \(leaked.sorted())")
                }
                #expect(secrets.count >= 8, "\(secrets.keys.sorted())")
            }
        }
    }

    @Test func plainHTTPIsForThisMachineOnly() async throws {
        try await EndToEnd.with { e2e in
            for host in ["http://example.com", "http://10.1.2.3:8080", "http://[2001:db8::1]/"] {
                let refused = try await e2e.cli(["--server", host, "whoami"])
                #expect(refused.status != 0 && refused.stderr.contains("--allow-insecure-http"), "\(host): \(refused)")
            }
            let allowed = try await e2e.cli(["--server", "http://10.1.2.3:8080", "--allow-insecure-http", "status"])
            #expect(!allowed.stderr.contains("--allow-insecure-http"), "\(allowed)")
        }
    }

    @Test func tlsVerificationCannotBeTurnedOff() async throws {
        try await EndToEnd.with { e2e in
            try await e2e.withServer { server in
                // A self-signed certificate on a loopback HTTPS server (socat in front of the dev server).
                let (certificate, key) = (
                    e2e.folder.appendingPathComponent("cert.pem"), e2e.folder.appendingPathComponent("key.pem")
                )
                let openssl = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/openssl"), environment: [:])
                let made = try await openssl.run([
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key.path, "-out", certificate.path,
                    "-days",
                    "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                ])
                #expect(made.status == 0, "\(made)")
                let tls = try await Daemon.tls(certificate: certificate, key: key, upstream: server.port)
                defer { Task { await tls.stop() } }
                let refused = try await e2e.cli(
                    ["login", "--server", "https://127.0.0.1:\(tls.port)", "--email", "sec@example.com"],
                    input: EndToEnd.password + "\n")
                #expect(refused.status != 0, "\(refused)")
                let message = refused.stdout + refused.stderr
                #expect(message.contains("TLS") || message.lowercased().contains("certificate"), "\(refused)")
            }
            // No option and no variable turns verification off.
            var switches: [String] = []
            for command in [[], ["login"], ["register"], ["sync"], ["import-health"], ["demo"]] {
                let help = try await e2e.cli(command + ["--help"])
                switches += help.stdout.split(whereSeparator: \.isWhitespace).map(String.init).filter { word in
                    word.hasPrefix("--")
                        && ["insecure-tls", "no-verify", "skip-verif", "skip-tls", "skip-cert"].contains {
                            word.contains($0)
                        }
                }
            }
            #expect(switches.isEmpty, "\(switches)")
            let binary = try Data(contentsOf: e2e.executable)
            let variables = ["SSL_CERT_SKIP", "FITIQ_INSECURE", "FITIQ_NO_VERIFY", "FITIQ_TLS"].filter {
                binary.range(of: Data($0.utf8)) != nil
            }
            #expect(variables.isEmpty, "\(variables)")
        }
    }

    /// Every file below `folder`.
    static func files(below folder: URL) -> [URL] {
        let all = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (all?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    static func mode(of url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }

    static func text(of url: URL) -> String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }

    /// `/proc/PID/<name>`, with its NUL separators kept.
    static func proc(_ pid: Int32, _ name: String) -> String {
        text(of: URL(fileURLWithPath: "/proc/\(pid)/\(name)"))
    }

    /// The token-like values of a session file: every string longer than 8 under a key naming a token
    /// or an API key.
    static func tokens(in session: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        func walk(_ value: Any, _ path: [String]) {
            if let object = value as? [String: Any] {
                for (key, inner) in object { walk(inner, path + [key]) }
            } else if let text = value as? String, let last = path.last?.lowercased(), text.count > 8,
                ["token", "apikey", "api_key"].contains(where: last.contains)
            {
                found[last.contains("token") ? "token " + path.joined(separator: ".") : "stored API key"] = text
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(contentsOf: session)), [])
        return found
    }
}
