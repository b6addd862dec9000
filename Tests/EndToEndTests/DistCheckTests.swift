import FitIQTestSupport
import Foundation
import Testing

/// The tarball `make dist-check` names in `FITIQ_DIST_TARBALL`.
let distTarball = ProcessInfo.processInfo.environment["FITIQ_DIST_TARBALL"].map(URL.init(fileURLWithPath:))

/// A release tarball as a new user meets it (`make dist-check`, part of `make check`), when
/// `FITIQ_DIST_TARBALL` names it (`dist/fitiq-tui-VERSION-linux-ARCH.tar.gz`). Each test unpacks it into
/// a fresh folder:
///
/// 1. What it holds, and what its program links.
/// 2. The unpacked program with a bare environment (`PATH=/usr/bin:/bin HOME=…`) from another folder:
///    `--version`, `--help`, `status` in German, French and Portuguese (the catalogs are inside), and
///    `demo` on a terminal up to its first frame. As root, with the Swift
///    toolchain hidden (a private mount namespace with an empty folder over it), as on a machine that
///    never had Swift. Then the shipped programs together: 40 heights saved offline, sent by `sync --wait`
///    to the shipped development server through an HTTP proxy (the optimised build's concurrent posts,
///    which the debug-built tests do not run).
/// 3. Its install.sh into a fresh PREFIX: the program runs from there, `man` finds its page, bash
///    completes its commands; then `install.sh --uninstall` leaves nothing behind.
@Suite(
    .enabled(if: distTarball != nil, "FITIQ_DIST_TARBALL names no tarball (make dist-check sets it)"),
    .timeLimit(.minutes(10)))
struct DistCheckTests {
    static let tarball = distTarball
    static let swiftToolchain = "/opt/swift"

    /// The tarball unpacked: its folder, the version its name gives, and a home and another folder to run from.
    struct Unpacked {
        let root: URL
        let version: String
        let home: URL
        let elsewhere: URL

        var program: URL { root.appendingPathComponent("bin/fitiq-tui") }
        /// The bare environment a new user's program gets.
        var environment: [String: String] { ["PATH": "/usr/bin:/bin", "HOME": home.path] }
    }

    /// Runs `body` with the tarball unpacked into a fresh folder, removed afterwards.
    static func withUnpacked<T>(_ body: (Unpacked) async throws -> T) async throws -> T {
        let tarball = try #require(tarball)
        return try await TemporaryFolder.with("fitiq-dist-check") { work in
            let name = String(tarball.lastPathComponent.dropLast(".tar.gz".count))
            let tar = CommandRunner(
                executable: URL(fileURLWithPath: "/usr/bin/tar"), environment: ["PATH": "/usr/bin:/bin"])
            let unpacked = try await tar.run(["-xzf", tarball.path, "-C", work.path])
            try #require(unpacked.status == 0, "\(unpacked)")
            let version = String(name.dropFirst("fitiq-tui-".count)).components(separatedBy: "-linux-").dropLast()
                .joined(separator: "-linux-")
            let folders = ["home", "elsewhere"].map { work.appendingPathComponent($0) }
            for folder in folders {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            return try await body(
                Unpacked(
                    root: work.appendingPathComponent(name), version: version, home: folders[0], elsewhere: folders[1]))
        }
    }

    /// Whether this process may hide the Swift toolchain from what it runs (as root).
    static var hidesSwift: Bool {
        getuid() == 0 && FileManager.default.fileExists(atPath: swiftToolchain)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    }

    /// `arguments` run from `folder`, where the Swift toolchain cannot be seen when this process may hide it.
    static func commandLine(_ arguments: [String], in folder: URL) -> [String] {
        let here = ["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path] + arguments
        guard hidesSwift else { return here }
        let hide = "mount -t tmpfs -o size=1m,mode=0755 tmpfs \(swiftToolchain) && exec \"$@\""
        return ["/usr/bin/unshare", "-m", "--propagation", "private", "/bin/sh", "-c", hide, "sh"] + here
    }

    /// Runs `arguments` from `folder` with only `environment`, the Swift toolchain hidden when it can be.
    static func run(
        _ arguments: [String], in folder: URL, environment: [String: String], input: String? = nil
    ) async throws -> CommandRunner.Result {
        let line = commandLine(arguments, in: folder)
        let runner = CommandRunner(executable: URL(fileURLWithPath: line[0]), environment: environment)
        return try await runner.run(Array(line.dropFirst()), input: input)
    }

    @Test func theTarballHoldsTheProgramsPagesCompletionsAndInstallerAndLinksNoSwiftRuntime() async throws {
        try await Self.withUnpacked { unpacked in
            let expected = [
                "bin/fitiq-tui", "bin/fitiq-dev-server", "share/man/man1/fitiq-tui.1",
                "share/bash-completion/completions/fitiq-tui", "share/zsh/site-functions/_fitiq-tui",
                "share/fish/vendor_completions.d/fitiq-tui.fish", "README.md", "LICENSE", "install.sh",
            ]
            let missing = expected.filter {
                var folder: ObjCBool = false
                let path = unpacked.root.appendingPathComponent($0).path
                return !FileManager.default.fileExists(atPath: path, isDirectory: &folder) || folder.boolValue
            }
            #expect(missing.isEmpty, "missing: \(missing)")
            let ldd = CommandRunner(
                executable: URL(fileURLWithPath: "/usr/bin/ldd"), environment: ["PATH": "/usr/bin:/bin"])
            let libraries = try await ldd.run([unpacked.program.path]).stdout
            let swiftLibraries = libraries.split(separator: "\n").filter {
                $0.lowercased().contains("swift") || $0.contains("Foundation") || $0.contains("libdispatch")
            }
            #expect(swiftLibraries.isEmpty, "fitiq-tui links a Swift runtime library: \(swiftLibraries)")
            // It opens libcurl with dlopen for its first request.
            #expect(!libraries.contains("libcurl"), "fitiq-tui links libcurl: \(libraries)")
        }
    }

    @Test func theUnpackedProgramPrintsItsVersionAndUsageInABareEnvironmentFromAnotherFolder() async throws {
        try await Self.withUnpacked { unpacked in
            if Self.hidesSwift {
                let seen = try await Self.run(
                    ["/bin/sh", "-c", "ls -A \(Self.swiftToolchain) | wc -l"], in: unpacked.elsewhere,
                    environment: unpacked.environment)
                #expect(
                    seen.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "the toolchain is seen: \(seen)"
                )
            }
            let shown = try await Self.run(
                [unpacked.program.path, "--version"], in: unpacked.elsewhere, environment: unpacked.environment)
            #expect(shown.status == 0, "\(shown)")
            #expect(shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == unpacked.version, "\(shown)")
            let helped = try await Self.run(
                [unpacked.program.path, "--help"], in: unpacked.elsewhere, environment: unpacked.environment)
            #expect(helped.status == 0, "\(helped)")
            #expect(helped.stdout.contains("USAGE:") && helped.stdout.contains("import-health"), "\(helped)")
            // The catalogs travel inside the program: a bare environment with a language gets it.
            for (variables, expected) in [
                (["FITIQ_LANG": "de"], "Fehler: Du bist nicht angemeldet."),
                (["LANG": "fr_FR.UTF-8"], "Erreur : Tu n'es pas connecté."),
                (["LANG": "pt_BR.UTF-8"], "Erro: Você não está conectado."),
            ] {
                let said = try await Self.run(
                    [unpacked.program.path, "status"], in: unpacked.elsewhere,
                    environment: unpacked.environment.merging(variables) { $1 })
                #expect(said.stderr.contains(expected), "\(variables): \(said)")
            }
        }
    }

    @Test func demoShowsItsFirstFrameOnATerminalAndQuitsWithStatusZero() async throws {
        try await Self.withUnpacked { unpacked in
            let environment = unpacked.environment.merging(["TERM": TmuxSession.term]) { $1 }
            let bare = ["/usr/bin/env", "-i"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let said = "demo exited with status"
            let command = Self.commandLine(bare + [unpacked.program.path, "demo"], in: unpacked.elsewhere)
                .map(shellQuote).joined(separator: " ")
            let terminal = try TmuxSession.start("\(command); echo \"\(said) $?\"")
            defer { terminal.kill() }
            try await terminal.waitFor(all: ["demo@fitiq.dev", "Alex Demo"], timeout: .seconds(60))
            try await terminal.send("q")
            let screen = try await terminal.waitUntil(said, timeout: .seconds(60), history: true) { rows in
                rows.contains { $0.contains(said) }
            }
            #expect(screen.contains("\(said) 0"), "\(screen)")
        }
    }

    /// Registers on the shipped development server, saves 40 heights offline, tries once through a proxy
    /// that refuses, then syncs them through an HTTP proxy named in `http_proxy` (tinyproxy), whose log
    /// must show the 40 posts.
    @Test func heightsSavedOfflineReachTheShippedServerThroughTheProxy() async throws {
        try await Self.withUnpacked { unpacked in
            let server = try await TestDevServer.launch(
                executable: unpacked.root.appendingPathComponent("bin/fitiq-dev-server"))
            let proxy: Daemon
            do { proxy = try await Daemon.tinyproxy(in: unpacked.home) } catch {
                await server.stop()
                throw error
            }
            do {
                try await Self.syncHeights(unpacked, server: server, proxy: proxy)
            } catch {
                await proxy.stop()
                await server.stop()
                throw error
            }
            await proxy.stop()
            await server.stop()
        }
    }

    static func syncHeights(_ unpacked: Unpacked, server: TestDevServer, proxy: Daemon) async throws {
        var environment = unpacked.environment
        environment["FITIQ_API_KEY"] = TestDevServer.apiKey
        for (name, folder) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_CONFIG_HOME", "config")] {
            environment[name] = unpacked.home.appendingPathComponent(folder).path
        }
        let program = unpacked.program.path
        let registered = try await Self.run(
            [
                program, "register", "--server", server.url, "--email", "dist@example.com", "--name", "Dist",
                "--date-of-birth", "1990-01-01",
            ], in: unpacked.elsewhere, environment: environment,
            input: "dist-password-123\n")
        try #require(registered.status == 0, "\(registered)")
        for index in 0..<40 {
            let saved = try await Self.run(
                [program, "height", "set", "16\(index / 10).\(index % 10) cm", "--no-sync"], in: unpacked.elsewhere,
                environment: environment)
            try #require(saved.status == 0, "\(saved)")
        }
        // A try that finds no way to the server keeps its reason with each change: the optimised build
        // crashed writing it (exit 139) while the debug build, which the other tests run, did not.
        let (closed, closedPort) = try Loopback.boundSocket(listening: false)
        defer { close(closed) }
        environment["http_proxy"] = "http://127.0.0.1:\(closedPort)"
        let refused = try await Self.run([program, "sync"], in: unpacked.elsewhere, environment: environment)
        #expect(refused.status == 0 && refused.stdout.contains("last try:"), "\(refused)")
        environment["http_proxy"] = "http://127.0.0.1:\(proxy.port)"
        let synced = try await Self.run([program, "sync", "--wait"], in: unpacked.elsewhere, environment: environment)
        #expect(synced.status == 0, "\(synced)")
        let requests = try await proxy.requestsLogged(to: server.url, mark: "dist-check")
        let posts = requests.filter { $0.contains("POST \(server.url)/api/v1/progress") }
        #expect(posts.count >= 40, "the proxy saw \(posts.count) posts of the 40 heights: \(requests)")
    }

    @Test func installShInstallsThePageAndCompletionAndUninstallLeavesNothing() async throws {
        try await Self.withUnpacked { unpacked in
            let shell = CommandRunner(executable: URL(fileURLWithPath: "/bin/sh"), environment: unpacked.environment)
            let prefix = unpacked.home.deletingLastPathComponent().appendingPathComponent("prefix")
            let installer = unpacked.root.appendingPathComponent("install.sh").path
            let installed = try await shell.run([installer, prefix.path])
            try #require(installed.status == 0, "\(installed)")
            let shown = try await Self.run(
                [prefix.appendingPathComponent("bin/fitiq-tui").path, "--version"], in: URL(fileURLWithPath: "/"),
                environment: unpacked.environment)
            #expect(
                shown.status == 0 && shown.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == unpacked.version,
                "\(shown)")
            let said = try await Self.run(
                [prefix.appendingPathComponent("bin/fitiq-tui").path, "status"], in: URL(fileURLWithPath: "/"),
                environment: unpacked.environment.merging(["LANG": "es_ES.UTF-8"]) { $1 })
            #expect(said.stderr.contains("Error: No has iniciado sesión."), "the installed program in Spanish: \(said)")
            var manual = CommandRunner(
                executable: URL(fileURLWithPath: "/usr/bin/man"), environment: unpacked.environment)
            manual.environment["MANPATH"] = prefix.appendingPathComponent("share/man").path
            manual.environment["MANWIDTH"] = "100"
            let page = try await manual.run(["-P", "cat", "fitiq-tui"])
            #expect(page.status == 0 && page.stdout.contains("import-health"), "\(page)")
            let completion = prefix.appendingPathComponent("share/bash-completion/completions/fitiq-tui").path
            let script = """
                source \(shellQuote(completion))
                COMP_WORDS=(fitiq-tui hei); COMP_CWORD=1; COMP_LINE='fitiq-tui hei'; COMP_POINT=13
                _fitiq-tui fitiq-tui hei fitiq-tui
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            var bash = CommandRunner(executable: URL(fileURLWithPath: "/bin/bash"), environment: unpacked.environment)
            bash.environment["PATH"] = prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin"
            let completed = try await bash.run(["--norc", "--noprofile", "-c", script])
            #expect(completed.stdout.split(separator: "\n") == ["height"], "\(completed)")
            let removed = try await shell.run([installer, "--uninstall", prefix.path])
            let left = FileManager.default.enumerator(atPath: prefix.path)?.allObjects as? [String] ?? []
            #expect(
                removed.status == 0 && !FileManager.default.fileExists(atPath: prefix.path), "\(removed) left: \(left)")
        }
    }
}
