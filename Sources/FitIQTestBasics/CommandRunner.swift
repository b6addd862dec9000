import Foundation

/// Runs a built executable as a separate process and collects what it printed.
public struct CommandRunner: Sendable {
    /// What a finished process left behind.
    public struct Result: Sendable, CustomStringConvertible {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        public var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    public let executable: URL
    /// The whole environment of each run (nothing is inherited but what is put here).
    public var environment: [String: String]

    public init(executable: URL, environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    /// Runs with `arguments`, feeding `input` on standard input; killed after `timeout` (a hang guard).
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`: Foundation's `Process` on Linux can miss a
    /// child's end, and then spins in `waitUntilExit` for ever (a test run hung on it twice).
    public func run(_ arguments: [String], input: String? = nil, timeout: Duration = .seconds(60)) async throws
        -> Result
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        let inFile = folder.appendingPathComponent("in")
        FileManager.default.createFile(atPath: inFile.path, contents: Data((input ?? "").utf8))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inFile.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        Self.closeInheritedFiles(&actions)
        let path = executable.path
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(path): \(spawned)"])
        }
        // The process is another program: poll for its end; the deadline only guards against a hang.
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid || (ended == -1 && errno != EINTR) { break }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                break
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(
            status: exit,
            stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }

    /// Closes every file but standard input, output and error in the child (as `Process` did: a child
    /// must not hold the test's sockets and pipes): glibc's `posix_spawn_file_actions_addclosefrom_np`
    /// when there is one (Swift's Glibc module does not declare it), else each descriptor open now.
    private static func closeInheritedFiles(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}
