import FitIQDevServer
import FitIQTestBasics
import Foundation
import Logging

/// One end-to-end run: a fresh development server on a free loopback port, fresh XDG folders, the
/// real `fitiq-tui` binary for command-line set-up, and the terminal UI in tmux.
public struct EndToEnd: Sendable {
    public static let apiKey = TestDevServer.apiKey
    public static let email = "jane@example.com"
    public static let password = "correct horse battery"
    public static let name = "Jane Doe"

    /// Holds the XDG folders, the server's database file and the terminal's wrapper script.
    public let folder: URL
    public let executable: URL
    public let database: URL

    /// Runs `body` with fresh folders, removed afterwards.
    public static func with<T: Sendable>(_ body: (EndToEnd) async throws -> T) async throws -> T {
        let temporary = try TemporaryFolder("fitiq-e2e")
        defer { temporary.remove() }
        let folder = temporary.url
        let harness = EndToEnd(
            folder: folder, executable: try BuiltProducts.executable(named: "fitiq-tui"),
            database: folder.appendingPathComponent("server.sqlite"))
        return try await body(harness)
    }

    /// A path in this run's home folder (`~/name`), its folder made.
    public func homeFile(_ name: String) throws -> URL {
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home.appendingPathComponent(name)
    }

    /// The environment of every `fitiq-tui` run: this run's XDG folders and nothing inherited
    /// (``CLIHarness/environment(home:)``).
    public var environment: [String: String] {
        CLIHarness.environment(home: folder.appendingPathComponent("home"))
    }

    /// The built `fitiq-tui` as this run's user; `changing` adjusts its environment.
    public func runner(changing: (inout [String: String]) -> Void = { _ in }) -> CommandRunner {
        var environment = self.environment
        changing(&environment)
        return CommandRunner(executable: executable, environment: environment)
    }

    /// Runs a `fitiq-tui` command (not the terminal UI) and returns what it printed.
    public func cli(_ arguments: [String], input: String? = nil) async throws -> CommandRunner.Result {
        try await runner().run(arguments, input: input)
    }

    /// Runs a `fitiq-tui` command through `ssh` (no terminal: `ssh HOST COMMAND`, `input` on its
    /// standard input) with this run's environment given on the remote command line; returns what
    /// came back and the remote exit status.
    public func cli(_ arguments: [String], input: String? = nil, ssh: SSHServer) async throws
        -> CommandRunner.Result
    {
        try await ssh.run(commandLine(arguments, environment: environment), input: input)
    }

    /// A shell command line that runs `fitiq-tui` with `arguments` and only `environment`
    /// (`env -i NAME=VALUE … fitiq-tui …`): how a remote command gets it, since sshd passes on none of
    /// the client's environment.
    public func commandLine(_ arguments: [String], environment: [String: String], prefix: [String] = []) -> String {
        let assignments = environment.sorted { $0.key < $1.key }.map { shellQuote("\($0.key)=\($0.value)") }
        let command = (prefix + [executable.path] + arguments).map(shellQuote)
        return (["env", "-i"] + assignments + command).joined(separator: " ")
    }

    /// Registers the test account on `server` with the command line, which also signs in.
    public func register(on server: TestDevServer) async throws -> CommandRunner.Result {
        try await cli(
            [
                "register", "--server", server.url, "--email", Self.email, "--name", Self.name, "--date-of-birth",
                "1983-07-20",
            ],
            input: Self.password + "\n")
    }

    /// Where the wrapper script saves the terminal settings before and after `fitiq-tui`.
    public var sttyBefore: URL { folder.appendingPathComponent("stty-before") }
    public var sttyAfter: URL { folder.appendingPathComponent("stty-after") }
    /// The same settings as `stty -a` writes them (readable, with the window size).
    public var sttyAllBefore: URL { folder.appendingPathComponent("stty-a-before") }
    public var sttyAllAfter: URL { folder.appendingPathComponent("stty-a-after") }
    /// Where the wrapper script saves the exit status of `fitiq-tui`.
    /// Where the wrapper script writes `fitiq-tui`'s exit status once it ended (before it says so).
    public var exitStatusFile: URL { folder.appendingPathComponent("exit-status") }
    /// Where the wrapper script saves the environment it got (before `env -i`): over SSH, what sshd set.
    public var terminalEnvironmentFile: URL { folder.appendingPathComponent("terminal-environment") }

    /// The environment the wrapper script got, one `NAME=VALUE` a line.
    public func terminalEnvironment() throws -> [String] {
        try String(contentsOf: terminalEnvironmentFile, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Waits until the wrapper script in `tui` says how `fitiq-tui` ended (on the screen, woken as the
    /// screen changes); returns the exit status it wrote just before, or `nil` if it did not say so
    /// within `timeout`.
    ///
    /// (Told by the script rather than by tmux's `pane_dead_status`: Debian's tmux, built with
    /// utempter, now and then misses the `SIGCHLD` of a pane's process and never learns its status.)
    public func waitForExitStatus(of tui: TmuxSession, timeout: Duration = TmuxSession.defaultTimeout) async throws
        -> Int32?
    {
        let said = "fitiq-tui exited with status"
        let count = try? await tui.waitUntil(said, timeout: timeout, history: true) { rows in
            rows.contains { $0.contains(said) }
        }
        guard count != nil, let text = try? String(contentsOf: exitStatusFile, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Opens the terminal UI against `server` in a fresh tmux server (100×30).
    ///
    /// The pane runs a small shell script: it records the terminal settings, runs `fitiq-tui`, then
    /// records them again with the program's exit status and prints `fitiq-tui exited with status N`;
    /// the pane stays after that.
    ///
    /// With `tracingProcesses`, `fitiq-tui` runs under `strace`, which writes there every process it
    /// starts (see ``startedProcesses(in:)``).
    ///
    /// `term` is the `TERM` it gets. With `ssh`, the script runs on the far side of `ssh -tt` to that
    /// server (in the terminal sshd makes), and without a locale: `LANG` is set only locally.
    public func openTUI(
        server: TestDevServer, tracingProcesses: Bool = false, extraEnvironment: [String: String] = [:],
        term: String = TmuxSession.term, ssh: SSHServer? = nil, size: (width: Int, height: Int) = (100, 30)
    ) throws -> TmuxSession {
        // Bare `fitiq-tui`, as people start it; the server comes from the environment.
        try openTUI(
            arguments: [], extraEnvironment: extraEnvironment.merging(["FITIQ_SERVER": server.url]) { $1 },
            tracingProcesses: tracingProcesses, term: term, ssh: ssh, size: size)
    }

    /// An interactive shell (`sh -i`, prompt `$ `) in a fresh tmux server, with this run's environment:
    /// job control works in it (Ctrl-Z, `fg`). Returns the session and the command line that starts
    /// `fitiq-tui` against `server` in it. With `ssh`, the shell runs on the far side of `ssh -tt` to
    /// that server, without a locale.
    public func openShell(server: TestDevServer, term: String = TmuxSession.term, ssh: SSHServer? = nil) throws
        -> (TmuxSession, command: String)
    {
        var variables = environment
        if ssh == nil { variables["LANG"] = "C.UTF-8" }
        variables["TERM"] = term
        variables["PS1"] = "$ "
        variables["FITIQ_SERVER"] = server.url
        let assignments = variables.sorted { $0.key < $1.key }.map { shellQuote("\($0.key)=\($0.value)") }
        let shell = "env -i \(assignments.joined(separator: " ")) /bin/sh -i"
        var session = try TmuxSession.start(ssh.map { $0.terminalCommand("exec \(shell)", term: term) } ?? shell)
        session.remoteProcesses = ssh?.pid
        return (session, shellQuote(executable.path))
    }

    /// Where `strace` writes what the traced `fitiq-tui` started.
    public var processTrace: URL { folder.appendingPathComponent("processes.strace") }

    /// The processes a traced `fitiq-tui` started: every `execve` but its own first one, and every
    /// `fork`, `vfork` or `clone` that made a process rather than a thread.
    ///
    /// A sanitizer's symbolizer is not the program's: under `make sanitize`, ThreadSanitizer starts
    /// `llvm-symbolizer` to read a stack it then matches against its suppressions (a race inside
    /// `Mutex`, `scripts/sanitize/tsan.supp`), in some runs and not others. Its `execve`, and the
    /// `clone` that returned its process, are left out.
    public func startedProcesses() throws -> [String] {
        try Self.startedProcesses(inTrace: String(contentsOf: processTrace, encoding: .utf8))
    }

    /// ``startedProcesses()`` of the text of a trace written by `strace -f`.
    public static func startedProcesses(inTrace trace: String) throws -> [String] {
        let lines = trace.split(separator: "\n").map(String.init)
        // strace -f starts each line with the process's id.
        func process(_ line: String) -> Substring { line.prefix { $0 != " " } }
        let symbolizers = lines.filter { $0.contains("execve(\"") && $0.contains("/llvm-symbolizer\"") }
        let symbolizerProcesses = Set(symbolizers.map(process))
        let execs = lines.filter { $0.contains("execve(") && !symbolizers.contains($0) }
        // Its own start is always there: a trace without it means strace traced nothing.
        guard execs.first?.contains("fitiq-tui") == true else {
            throw ChildProcess.Failure(description: "strace recorded no start of fitiq-tui: \(lines.prefix(5))")
        }
        let forks = lines.filter { line in
            (line.contains("fork(") || line.contains("clone(") || line.contains("clone3("))
                && !line.contains("CLONE_THREAD") && !line.contains("resumed>")
                && !symbolizerProcesses.contains { line.hasSuffix(" = \($0)") }
        }
        return Array(execs.dropFirst()) + forks
    }

    /// Opens the editor against `server` for the account signed in here, and waits for its synced
    /// profile (and for `also`); the caller kills the session.
    public func openEditor(on server: TestDevServer, waitingAlsoFor also: ([String]) -> Bool = { _ in true })
        async throws -> TmuxSession
    {
        let tui = try openTUI(server: server)
        do {
            try await waitForProfile(tui, also: also)
        } catch {
            tui.kill()
            throw error
        }
        return tui
    }

    /// Runs `fitiq-tui` with `arguments` in a fresh tmux server (100×30), as ``openTUI(server:)`` does.
    /// With `ignoringHangUp`, the program starts with SIGHUP ignored, as under `nohup`: a terminal that
    /// goes away then tells it only by its input's end.
    public func openTUI(
        arguments: [String], extraEnvironment: [String: String] = [:], tracingProcesses: Bool = false,
        term: String = TmuxSession.term, ssh: SSHServer? = nil, size: (width: Int, height: Int) = (100, 30),
        ignoringHangUp: Bool = false
    ) throws -> TmuxSession {
        // LANG (only locally) and TERM, unless `extraEnvironment` says otherwise. (Over SSH, `term`
        // is also the client's TERM, which sshd gives the terminal it makes.)
        var variables = environment
        if ssh == nil { variables["LANG"] = "C.UTF-8" }
        variables["TERM"] = term
        variables.merge(extraEnvironment) { $1 }
        if tracingProcesses { variables = BuiltProducts.traced(variables) }
        let tracer =
            tracingProcesses
            ? ["strace", "-f", "-qq", "-e", "trace=execve,fork,vfork,clone,clone3", "-o", processTrace.path] : []
        let script = """
            env > \(shellQuote(terminalEnvironmentFile.path))
            stty -g > \(shellQuote(sttyBefore.path))
            stty -a > \(shellQuote(sttyAllBefore.path))
            \(commandLine(arguments, environment: variables, prefix: tracer + (ignoringHangUp ? Self.ignoringHangUp : [])))
            status=$?
            stty -g > \(shellQuote(sttyAfter.path))
            stty -a > \(shellQuote(sttyAllAfter.path))
            echo "$status" > \(shellQuote(exitStatusFile.path))
            echo "fitiq-tui exited with status $status"

            """
        let scriptFile = folder.appendingPathComponent("tui.sh")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        let start = "/bin/sh \(shellQuote(scriptFile.path))"
        var session = try TmuxSession.start(
            ssh.map { $0.terminalCommand(start, term: term) } ?? start, width: size.width, height: size.height)
        session.remoteProcesses = ssh?.pid
        return session
    }

    /// A command prefix that runs the rest with SIGHUP ignored (an ignored signal stays ignored across
    /// `exec`).
    static let ignoringHangUp = ["/bin/sh", "-c", "trap '' HUP; exec \"$@\"", "sh"]

    /// Starts a development server (``TestDevServer``) keeping its data in this run's database file.
    public func startServer() async throws -> TestDevServer {
        try await TestDevServer.start(TestDevServer.configuration(database: database))
    }

    /// Runs `body` with a fresh development server (data in this run's database file), stopped
    /// afterwards whatever happens.
    public func withServer<T: Sendable>(_ body: (TestDevServer) async throws -> T) async throws -> T {
        try await TestDevServer.with(TestDevServer.configuration(database: database), body)
    }
}

/// `text` as one word of a shell command line.
public func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Reading the development server's side of an end-to-end run.
extension TestDevServer {
    /// What the server holds for the test account, read over its HTTP API.
    public func snapshot() async throws -> ServerSnapshot {
        let token = try await accessToken(email: EndToEnd.email, password: EndToEnd.password)
        guard let profile = try await api("GET", "users/me", token: token)["profile"] else {
            throw APIFailure(description: "no profile for \(EndToEnd.email)")
        }
        return ServerSnapshot(
            name: profile["name"]?.string, bio: profile["bio"]?.string,
            unitSystem: profile["preferred_unit_system"]?.string, heightCm: profile["height_cm"]?.double,
            heightEntries: try await quantities(of: "height", token: token),
            weightEntries: try await quantities(of: "weight", token: token),
            bodyFatEntries: try await quantities(of: "body_fat_percentage", token: token))
    }
}

/// The test account as the server has it.
public struct ServerSnapshot: Sendable {
    public let name: String?
    public let bio: String?
    public let unitSystem: String?
    public let heightCm: Double?
    /// The quantities of the account's `height`, `weight` and `body_fat_percentage` progress entries.
    public let heightEntries: [Double]
    public let weightEntries: [Double]
    public let bodyFatEntries: [Double]
}

/// Reading the profile screen's text.
extension [String] {
    /// Whether the field labelled `label` holds `text` as saved: no unsaved mark, and no field is being
    /// edited (the footer offers `Enter edit`; while a field is edited its text shows without the mark).
    public func showsSaved(_ label: String, _ text: String) -> Bool {
        field(label)?.contains(text) == true && field(label)?.contains("*") == false
            && contains { $0.contains("Enter edit") }
    }

    /// The first row holding `text`.
    public func row(containing text: String) -> String? {
        first { $0.contains(text) }
    }

    /// The title bar.
    public var title: String { first ?? "" }

    /// Whether the last row with text is a shell's prompt (`$ `, as ``EndToEnd/openShell(server:term:ssh:)``
    /// sets it).
    public var endsWithPrompt: Bool {
        last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasPrefix("$") == true
    }

    /// The half of a box row that holds the field labelled `label` (the Profile and Physical boxes
    /// stand side by side, so one screen row holds a field of each, joined by `││`).
    public func field(_ label: String) -> String? {
        for row in self where row.contains("││") {
            if let half = row.components(separatedBy: "││").first(where: { $0.contains(label) }) { return half }
        }
        return nil
    }
}

extension String {
    /// The column (in characters, for rows without wide characters) where `text` starts, if present.
    public func column(of text: String) -> Int? {
        guard let range = range(of: text) else { return nil }
        return distance(from: startIndex, to: range.lowerBound)
    }
}

/// Runs `body` with a fresh end-to-end run (``EndToEnd/with(_:)``) and a development server keeping its
/// data in the run's folder; the server stops and the folders go when `body` ends, however it ends.
public func withEndToEnd<T: Sendable>(_ body: (EndToEnd, TestDevServer) async throws -> T) async throws -> T {
    try await EndToEnd.with { e2e in try await e2e.withServer { server in try await body(e2e, server) } }
}

/// The editor on a real terminal, signed in: registers the test account on `server` with the command
/// line (in `e2e`'s folders; fresh ones, removed afterwards, when `nil`), opens `fitiq-tui` in tmux on a
/// terminal of `size` and type `term` (through `ssh` when given), waits for the synced profile (and for
/// `also`), and runs `body` with the screen. The terminal and everything in it stop when `body` returns
/// or throws.
public func withEditor<T: Sendable>(
    _ server: TestDevServer, term: String = TmuxSession.term, size: (width: Int, height: Int) = (100, 30),
    ssh: SSHServer? = nil, in e2e: EndToEnd? = nil, waitingAlsoFor also: ([String]) -> Bool = { _ in true },
    _ body: (TmuxSession) async throws -> T
) async throws -> T {
    guard let e2e else {
        return try await EndToEnd.with { e2e in
            try await withEditor(server, term: term, size: size, ssh: ssh, in: e2e, waitingAlsoFor: also, body)
        }
    }
    let registered = try await e2e.register(on: server)
    guard registered.status == 0 else { throw ChildProcess.Failure(description: "register: \(registered)") }
    let tui = try e2e.openTUI(server: server, term: term, ssh: ssh, size: size)
    defer { tui.kill() }
    try await waitForProfile(tui, also: also)
    return try await body(tui)
}

extension TmuxSession {
    /// Edits the focused field `label`: Enter, Ctrl-U when `replacing`, `text` typed, Enter; waits until
    /// the field shows `draft` (its whole new text; `text` when replacing) as a draft, not yet saved.
    public func editField(_ label: String, replacing: Bool = false, typing text: String, draft: String? = nil)
        async throws
    {
        let draft = draft ?? text
        try await send("Enter")
        try await waitFor("Enter confirm")
        if replacing { try await send("C-u") }
        try await type(text)
        try await waitUntil("the new \(label.lowercased()) typed") { $0.field(label)?.contains(draft) == true }
        try await send("Enter")
        try await waitUntil("the \(label.lowercased()) as a draft") {
            $0.field(label)?.contains("\(draft) *") == true
        }
    }
}

/// Waits for the profile screen of the test account, synced, and for `also` to hold; returns it.
@discardableResult
public func waitForProfile(
    _ tui: TmuxSession, also: ([String]) -> Bool = { _ in true }
) async throws -> String {
    try await tui.waitUntil("the synced profile screen") {
        $0.title.contains(EndToEnd.email) && $0.title.contains("● synced")
            && $0.field("Name")?.contains(EndToEnd.name) == true && also($0)
    }
}

/// The column where the Physical box starts, read from its top border.
public func rightBoxColumn(_ lines: [String]) -> Int? {
    guard lines.count > 1, let joint = lines[1].column(of: "┐┌") else { return nil }
    return joint + 1
}
