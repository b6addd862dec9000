import FitIQTestBasics
import Foundation

/// Drives a program on a real terminal: a private tmux server (`-L`, no user config) with one
/// detached session, keys in through `send-keys`, the screen out through `capture-pane`.
///
/// Every check waits for the whole expected screen: it reads the screen again each time the pane's
/// program writes, which a tmux control-mode client attached to the session reports (`%output`);
/// nothing sleeps. The deadline is a guard against hangs on a loaded machine, not a performance check.
public struct TmuxSession: Sendable {
    /// The `TERM` programs get unless a test chooses another: what tmux says its panes are.
    public static let term = "tmux-256color"

    /// How long ``waitFor(_:timeout:)`` waits unless told otherwise.
    public static let defaultTimeout: Duration = .seconds(30)

    /// A condition that did not hold before its deadline; carries the last screen seen.
    public struct Timeout: Error, CustomStringConvertible {
        public let waitingFor: String
        public let screen: String
        /// The pane's processes then: state and, per thread, where it waits in the kernel.
        public var processes = ""
        public var description: String {
            "Timed out waiting for \(waitingFor). The screen was:\n\(screen)\nThe pane's processes:\n\(processes)"
        }
    }

    /// The pane's processes and their threads, from /proc: what each was doing when a wait timed out.
    /// With ``remoteProcesses``, those processes and theirs too.
    public func processReport() -> String {
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
    public struct CommandFailed: Error, CustomStringConvertible {
        public let arguments: [String]
        public let status: Int32
        public let output: String
        public var description: String { "tmux \(arguments.joined(separator: " ")) exited \(status): \(output)" }
    }

    /// The private server's socket name.
    public let socket: String
    /// The tmux server's process and the pane's (the shell that starts the program).
    public let serverPID: Int32
    public let panePID: Int32
    /// Where the program really runs when the pane only reaches it (sshd, for a program run through
    /// SSH): a timeout reports this process and its descendants as well.
    public var remoteProcesses: Int32?
    /// A control-mode client of the session: a line for each write of the pane's program.
    public let control: ChildProcess

    private static let target = "e2e"

    /// Starts a private tmux server running `command` (a shell command line) on a `width`×`height`
    /// terminal. The pane stays after the command ends, so its last screen can still be read.
    public static func start(_ command: String, width: Int = 100, height: Int = 30) throws -> TmuxSession {
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
    public func send(_ keys: String...) async throws {
        _ = try await run(["send-keys", "-t", Self.target] + keys)
    }

    /// Sends bytes as they are, each as two hex digits (`send-keys -H`): input that need not be UTF-8.
    public func sendBytes(_ hex: [String]) async throws {
        _ = try await run(["send-keys", "-t", Self.target, "-H"] + hex)
    }

    /// The title the program set (an escape sequence that got through would change it).
    public func title() async throws -> String {
        try await run(["display-message", "-p", "-t", Self.target, "#{pane_title}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Types `text` literally (UTF-8, no key names).
    public func type(_ text: String) async throws {
        _ = try await run(["send-keys", "-t", Self.target, "-l", "--", text])
    }

    /// Pastes `text` as a terminal does (`paste-buffer -p`): inside bracketed paste markers when the
    /// program asked for them.
    public func paste(_ text: String) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-paste-\(UUID().uuidString)")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let buffer = "paste-\(UUID().uuidString)"
        _ = try await run(["load-buffer", "-b", buffer, file.path])
        _ = try await run(["paste-buffer", "-p", "-d", "-b", buffer, "-t", Self.target])
    }

    /// Clicks the main button on the cell at column `x`, row `y` (from 0), as a terminal reports it in
    /// SGR mode (1006): a press, then a release.
    public func click(x: Int, y: Int) async throws {
        try await type("\u{1B}[<0;\(x + 1);\(y + 1)M\u{1B}[<0;\(x + 1);\(y + 1)m")
    }

    /// Clicks the second cell of the first row at or below `row` that shows `text` (the row's characters
    /// before it counted one column each: not for rows with wide characters before it).
    public func click(on text: String, below row: Int = 0) async throws {
        let rows = try await lines()
        guard let y = rows.indices.first(where: { $0 >= row && rows[$0].contains(text) }),
            let range = rows[y].range(of: text)
        else { throw Timeout(waitingFor: "\(text) to click on", screen: rows.joined(separator: "\n"), processes: "") }
        try await click(x: rows[y][..<range.lowerBound].count + 1, y: y)
    }

    /// Turns the mouse wheel one notch over the cell at (`x`, `y`), as an SGR report (64 up, 65 down).
    public func wheel(down: Bool, x: Int = 2, y: Int = 2) async throws {
        try await type("\u{1B}[<\(down ? 65 : 64);\(x + 1);\(y + 1)M")
    }

    /// Whether the program has asked the terminal for mouse reports (tmux's `mouse_any_flag`).
    public func mouseReportsOn() async throws -> Bool {
        try await run(["display-message", "-p", "-t", Self.target, "#{mouse_any_flag}"]).trimmingCharacters(
            in: .whitespacesAndNewlines) == "1"
    }

    /// The screen as text, one line per row.
    public func screen() async throws -> String {
        try await run(["capture-pane", "-p", "-t", Self.target])
    }

    /// The screen with the lines scrolled off above it, lines the terminal wrapped joined (when the pane ends, tmux's "Pane is dead" line
    /// scrolls the screen by one).
    public func screenAndHistory() async throws -> String {
        try await run(["capture-pane", "-p", "-J", "-S", "-", "-t", Self.target])
    }

    /// The screen as a terminal shows it, for a screenshot: text with its colours and attributes
    /// (`capture-pane -e -N`), the terminal's size, and the cursor when it is shown.
    public struct Capture: Sendable {
        public let text: String
        public let width: Int
        public let height: Int
        public let cursor: (x: Int, y: Int)?
    }

    public func capture() async throws -> Capture {
        let text = try await run(["capture-pane", "-e", "-p", "-N", "-t", Self.target])
        let format = "#{pane_width} #{pane_height} #{cursor_flag} #{cursor_x} #{cursor_y}"
        let numbers = try await run(["display-message", "-p", "-t", Self.target, format]).split(separator: " ").map {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        guard numbers.count == 5 else {
            throw CommandFailed(arguments: ["display-message"], status: 0, output: "\(numbers)")
        }
        return Capture(
            text: text, width: numbers[0], height: numbers[1], cursor: numbers[2] == 1 ? (numbers[3], numbers[4]) : nil)
    }

    /// The screen's rows.
    public func lines() async throws -> [String] {
        Self.rows(of: try await screen())
    }

    /// The rows of a captured screen (which ends with a newline).
    public static func rows(of screen: String) -> [String] {
        var rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        return rows
    }

    /// Resizes the terminal; the program sees `SIGWINCH`.
    public func resize(width: Int, height: Int) async throws {
        _ = try await run(["resize-window", "-t", Self.target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the screen contains `text` (on one row); returns that screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Duration = defaultTimeout) async throws -> String {
        try await waitFor(all: [text], timeout: timeout)
    }

    /// Waits until the screen contains every one of `texts` (each on one row); returns that screen.
    ///
    /// A test waits for everything it will assert on: a screen caught while it is being painted can
    /// hold the first text and not yet the others.
    @discardableResult
    public func waitFor(all texts: [String], timeout: Duration = defaultTimeout) async throws -> String {
        let description = texts.map { "\"\($0)\"" }.joined(separator: " and ")
        return try await waitUntil(description, timeout: timeout) { rows in
            texts.allSatisfy { text in rows.contains { $0.contains(text) } }
        }
    }

    /// Waits until `condition` holds for the screen's rows; returns that screen. The screen is read
    /// again after each write of the program, and only then.
    @discardableResult
    /// With `history`, the rows scrolled off above the screen count too (``screenAndHistory()``).
    public func waitUntil(
        _ description: String, timeout: Duration = defaultTimeout, history: Bool = false,
        _ condition: ([String]) -> Bool
    ) async throws -> String {
        try await wait(description, timeout: timeout, reading: { try await history ? screenAndHistory() : screen() }) {
            condition(Self.rows(of: $0))
        } shown: {
            $0
        }
    }

    /// Waits until `condition` holds for the screen as ``capture()`` gives it (text, size and cursor),
    /// read again after each write of the program; returns that capture.
    @discardableResult
    public func waitUntilCaptured(
        _ description: String, timeout: Duration = defaultTimeout, _ condition: (Capture) -> Bool
    ) async throws -> Capture {
        try await wait(description, timeout: timeout, reading: capture, until: condition) { $0.text }
    }

    private func wait<Seen>(
        _ description: String, timeout: Duration, reading read: () async throws -> Seen,
        until condition: (Seen) -> Bool,
        shown: (Seen) -> String
    ) async throws -> Seen {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        // Attached: from here on, every write of the program is reported.
        _ = try? await control.waitForLines(within: timeout) { $0.contains { $0.hasPrefix("%session-changed") } }
        while true {
            // Counted before the screen is read: a write that comes after wakes the wait below.
            let seen = control.lines.count
            let screen = try await read()
            if condition(screen) { return screen }
            do {
                try await control.waitForLines(within: deadline - ContinuousClock.now) { $0.count > seen }
            } catch {
                let last = (try? await read()) ?? screen
                if condition(last) { return last }
                throw Timeout(waitingFor: description, screen: shown(last), processes: processReport())
            }
        }
    }

    /// Closes the terminal as a dropped connection does: the tmux server ends, sends SIGHUP to what runs
    /// in it and closes its terminal. Returns the programs that ran in the pane, to watch them end.
    public func hangUp() async throws -> [Int32] {
        let started = ProcessTree.descendants(of: panePID) + [panePID]
        _ = try await run(["kill-server"])
        return started
    }

    /// Stops the tmux server and everything it started, at once (`SIGKILL`): a test that wants a
    /// program's own way out asks for it before. Returns once they have ended, which takes no time
    /// worth the name: it runs in a `defer`, on a thread the other tests share.
    public func kill() {
        let started = ProcessTree.descendants(of: panePID) + [panePID, serverPID]
        control.closeInput()
        for pid in started { Foundation.kill(pid, SIGKILL) }
        ProcessTree.reap(started, within: .seconds(10))
    }

    /// Runs a tmux command against this server, awaited without holding a thread of the task pool
    /// (tests run side by side on it).
    private func run(_ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fitiq-tmux-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let tmux = try ChildProcess(
            ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments, environment: Self.environment,
            output: .file(output))
        let status = await tmux.exit()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw CommandFailed(arguments: arguments, status: status, output: text) }
        return text
    }

    /// A UTF-8 locale so that tmux passes and captures wide characters; nothing else inherited.
    private static let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHELL": "/bin/sh"]

    private static func run(socket: String, _ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(
            ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments, environment: environment)
        guard result.status == 0 else {
            throw CommandFailed(arguments: arguments, status: result.status, output: result.output)
        }
        return result.output
    }
}
