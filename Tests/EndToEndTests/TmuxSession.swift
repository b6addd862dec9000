import FitIQTestSupport
import Foundation

/// Drives a program on a real terminal: a private tmux server (`-L`, no user config) with one
/// detached session, keys in through `send-keys`, the screen out through `capture-pane`.
///
/// Every check waits for the whole expected screen: it reads the screen again each time the pane's
/// program writes, which a tmux control-mode client attached to the session reports (`%output`);
/// nothing sleeps. The deadline is a guard against hangs on a loaded machine, not a performance check.
struct TmuxSession: Sendable {
    /// The `TERM` programs get unless a test chooses another: what tmux says its panes are.
    static let term = "tmux-256color"

    /// How long ``waitFor(_:timeout:)`` waits unless told otherwise.
    static let defaultTimeout: Duration = .seconds(30)

    /// A condition that did not hold before its deadline; carries the last screen seen.
    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        let screen: String
        /// The pane's processes then: state and, per thread, where it waits in the kernel.
        var processes = ""
        var description: String {
            "Timed out waiting for \(waitingFor). The screen was:\n\(screen)\nThe pane's processes:\n\(processes)"
        }
    }

    /// The pane's processes and their threads, from /proc: what each was doing when a wait timed out.
    /// With ``remoteProcesses``, those processes and theirs too.
    func processReport() -> String {
        func read(_ path: String) -> String {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "?").trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        func field(_ status: String, _ name: String) -> String {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map {
                String($0.dropFirst(name.count + 1))
            }?
            .trimmingCharacters(in: .whitespaces) ?? "?"
        }
        var lines: [String] = []
        let remote = remoteProcesses.map { [$0] + ProcessTree.descendants(of: $0) } ?? []
        for pid in [panePID] + ProcessTree.descendants(of: panePID) + remote {
            let status = read("/proc/\(pid)/status")
            // stat fields 5 and 8: the process group, and the terminal's foreground process group.
            let stat = read("/proc/\(pid)/stat").split(separator: ")").last?.split(separator: " ") ?? []
            let groups = stat.count > 5 ? "group \(stat[2]) foreground \(stat[5])" : "group ?"
            lines.append(
                "\(pid) \(field(status, "Name")) \(field(status, "State")) \(groups) pending \(field(status, "ShdPnd")) "
                    + "caught \(field(status, "SigCgt")) ignored \(field(status, "SigIgn"))")
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks.sorted() {
                let taskStatus = read("/proc/\(pid)/task/\(task)/status")
                lines.append(
                    "  \(task) \(field(taskStatus, "Name")) \(field(taskStatus, "State")) blocked "
                        + "\(field(taskStatus, "SigBlk")) pending \(field(taskStatus, "SigPnd")) in "
                        + read("/proc/\(pid)/task/\(task)/wchan"))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A tmux command that failed.
    struct CommandFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let output: String
        var description: String { "tmux \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }

    /// The private server's socket name.
    let socket: String
    /// The tmux server's process and the pane's (the shell that starts the program).
    let serverPID: Int32
    let panePID: Int32
    /// Where the program really runs when the pane only reaches it (sshd, for a program run through
    /// SSH): a timeout reports this process and its descendants as well.
    var remoteProcesses: Int32?
    /// A control-mode client of the session: a line for each write of the pane's program.
    let control: ChildProcess

    private static let target = "e2e"

    /// Starts a private tmux server running `command` (a shell command line) on a `width`×`height`
    /// terminal. The pane stays after the command ends, so its last screen can still be read.
    static func start(_ command: String, width: Int = 100, height: Int = 30) throws -> TmuxSession {
        // Never reused: a name reused right after `kill-server` can reach the old server while it is
        // still exiting, and `new-session` then fails with "server exited unexpectedly".
        let socket = "fitiq-e2e-\(getpid())-\(UUID().uuidString.lowercased())"
        _ = try run(
            socket: socket,
            [
                "new-session", "-d", "-s", target, "-x", "\(width)", "-y", "\(height)", command, ";",
                "set-option", "-g", "remain-on-exit", "on", ";",
                // The control client below must not resize the window to its own size.
                "set-option", "-g", "window-size", "manual",
            ])
        let pids = try run(socket: socket, ["display-message", "-p", "-t", target, "#{pid} #{pane_pid}"])
        let numbers = pids.split(separator: " ").compactMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard numbers.count == 2 else {
            _ = try? run(socket: socket, ["kill-server"])
            throw CommandFailed(arguments: ["display-message"], status: 0, output: "no process ids in \(pids)")
        }
        let control = try ChildProcess(
            ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null", "-C", "attach-session", "-t", target],
            environment: environment, input: .heldOpen, output: .lines)
        return TmuxSession(socket: socket, serverPID: numbers[0], panePID: numbers[1], control: control)
    }

    /// Sends named keys (`Tab`, `BTab`, `Enter`, `Escape`, `C-s`, `C-u`, or single characters).
    func send(_ keys: String...) throws {
        _ = try run(["send-keys", "-t", Self.target] + keys)
    }

    /// Sends bytes as they are, each as two hex digits (`send-keys -H`): input that need not be UTF-8.
    func sendBytes(_ hex: [String]) throws {
        _ = try run(["send-keys", "-t", Self.target, "-H"] + hex)
    }

    /// The title the program set (an escape sequence that got through would change it).
    func title() throws -> String {
        try run(["display-message", "-p", "-t", Self.target, "#{pane_title}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Types `text` literally (UTF-8, no key names).
    func type(_ text: String) throws {
        _ = try run(["send-keys", "-t", Self.target, "-l", "--", text])
    }

    /// Pastes `text` as a terminal does (`paste-buffer -p`): inside bracketed paste markers when the
    /// program asked for them.
    func paste(_ text: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-paste-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let buffer = "paste-\(UUID().uuidString)"
        _ = try run(["load-buffer", "-b", buffer, file.path])
        _ = try run(["paste-buffer", "-p", "-d", "-b", buffer, "-t", Self.target])
    }

    /// The screen as text, one line per row.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", Self.target])
    }

    /// The screen with the lines scrolled off above it, lines the terminal wrapped joined (when the pane ends, tmux's "Pane is dead" line
    /// scrolls the screen by one).
    func screenAndHistory() throws -> String {
        try run(["capture-pane", "-p", "-J", "-S", "-", "-t", Self.target])
    }

    /// The screen's rows.
    func lines() throws -> [String] {
        Self.rows(of: try screen())
    }

    /// The rows of a captured screen (which ends with a newline).
    static func rows(of screen: String) -> [String] {
        var rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// Resizes the terminal; the program sees `SIGWINCH`.
    func resize(width: Int, height: Int) throws {
        _ = try run(["resize-window", "-t", Self.target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen contains `text` (on one row); returns that screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = defaultTimeout) async throws -> String {
        try await waitFor(all: [text], timeout: timeout)
    }

    /// Waits until the screen contains every one of `texts` (each on one row); returns that screen.
    ///
    /// A test waits for everything it will assert on: a screen caught while it is being painted can
    /// hold the first text and not yet the others.
    @discardableResult
    func waitFor(all texts: [String], timeout: Duration = defaultTimeout) async throws -> String {
        let description = texts.map { "\"\($0)\"" }.joined(separator: " and ")
        return try await waitUntil(description, timeout: timeout) { rows in
            texts.allSatisfy { text in rows.contains { $0.contains(text) } }
        }
    }

    /// Waits until `condition` holds for the screen's rows; returns that screen. The screen is read
    /// again after each write of the program, and only then.
    @discardableResult
    /// With `history`, the rows scrolled off above the screen count too (``screenAndHistory()``).
    func waitUntil(
        _ description: String, timeout: Duration = defaultTimeout, history: Bool = false,
        _ condition: ([String]) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        // Attached: from here on, every write of the program is reported.
        try? await control.waitForLines(within: timeout) { $0.contains { $0.hasPrefix("%session-changed") } }
        while true {
            // Counted before the screen is read: a write that comes after wakes the wait below.
            let seen = control.lines.count
            let screen = try history ? screenAndHistory() : screen()
            if condition(Self.rows(of: screen)) { return screen }
            do {
                try await control.waitForLines(within: deadline - ContinuousClock.now) { $0.count > seen }
            } catch {
                let last = (try? history ? screenAndHistory() : self.screen()) ?? screen
                if condition(Self.rows(of: last)) { return last }
                throw Timeout(waitingFor: description, screen: last, processes: processReport())
            }
        }
    }

    /// Stops the tmux server and makes sure nothing it started is still running.
    func kill() {
        let started = ProcessTree.descendants(of: panePID) + [panePID, serverPID]
        control.closeInput()
        _ = try? run(["kill-server"])
        ProcessTree.reap(started, within: .seconds(10))
    }

    private func run(_ arguments: [String]) throws -> String {
        try Self.run(socket: socket, arguments)
    }

    /// A UTF-8 locale so that tmux passes and captures wide characters; nothing else inherited.
    private static let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHELL": "/bin/sh"]

    private static func run(socket: String, _ arguments: [String]) throws -> String {
        let result = try CleanSpawn.run(
            "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, environment: environment)
        guard result.status == 0 else {
            throw CommandFailed(arguments: arguments, status: result.status, output: result.output)
        }
        return result.output
    }
}

/// Runs a program the way a shell would: default signal handling, no signal blocked, and none of
/// this process's open files (`Foundation.Process` passes on the test runner's blocked signals, and
/// a tmux server started so ignores `kill-server`; an inherited listening socket would keep the
/// development server's port open after it stopped). Output goes to a file, not a pipe: the tmux
/// server lives on after the client that started it and would hold a pipe open.
enum CleanSpawn {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `path` with `arguments` and `environment` to the end; returns its status and output.
    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, output: String)
    {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-spawn-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let pid = try start(path, arguments, environment: environment, output: outputFile)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failed(description: "waitpid: \(String(cString: strerror(errno)))") }
        }
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return (exitStatus(status), output)
    }

    /// Starts `path` as ``run(_:_:environment:)`` does, its standard output and error going to `output`
    /// (made or emptied), and returns its process id at once: the caller waits for it (`waitpid`).
    static func start(_ path: String, _ arguments: [String], environment: [String: String], output: URL) throws
        -> pid_t
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        ChildProcess.closeInheritedFiles(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            throw Failed(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// A `waitpid` status as a shell tells it: the exit status, or 128 + the signal that killed it.
    static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// Processes by id, read from `/proc`: used only to end what a test started.
enum ProcessTree {
    /// Every live descendant of `pid`.
    static func descendants(of pid: Int32) -> [Int32] {
        var parents: [Int32: [Int32]] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = Int32(entry), let parent = parentID(of: child) else { continue }
            parents[parent, default: []].append(child)
        }
        var result: [Int32] = []
        var queue = [pid]
        while let next = queue.popLast() {
            let children = parents[next] ?? []
            result += children
            queue += children
        }
        return result
    }

    /// Waits for `pids` to end; any still alive at the deadline is killed.
    static func reap(_ pids: [Int32], within timeout: Duration) {
        for pid in stillRunning(pids, after: timeout) { Foundation.kill(pid, SIGKILL) }
    }

    /// Waits until every one of `pids` has ended, or `timeout` passed; returns those still running.
    /// Each is watched through a pidfd (`pidfd_open`, Linux 5.3), which `poll` reports readable when
    /// the process ends: woken by the end itself, whoever's child it is.
    static func stillRunning(_ pids: [Int32], after timeout: Duration) -> [Int32] {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else {
            return pids.filter(isAlive)
        }
        let open = unsafeBitCast(symbol, to: PidfdOpen.self)
        // A process already gone has no pidfd to open.
        var watched = pids.compactMap { pid -> (pid: Int32, fd: Int32)? in
            let fd = open(pid, 0)
            return fd >= 0 ? (pid, fd) : nil
        }
        defer { watched.forEach { close($0.fd) } }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !watched.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var polled = watched.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), ChildExit.milliseconds(left)) >= 0 || errno == EINTR else {
                break
            }
            for (index, entry) in polled.enumerated().reversed() where entry.revents != 0 {
                close(watched[index].fd)
                watched.remove(at: index)
            }
        }
        return watched.map(\.pid).filter(isAlive)
    }

    /// Waits, off the test's threads, until `pid` has ended or `timeout` passed; whether it ended.
    static func ended(_ pid: Int32, within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: stillRunning([pid], after: timeout).isEmpty) }
        }
    }

    /// The command name of `pid` (`/proc/PID/comm`), if it runs.
    static func name(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Whether `pid` is running (a zombie counts as ended).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return state != "Z" && state != "X"
    }

    private static func parentID(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command name: state, then the parent's id.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }
}
