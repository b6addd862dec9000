import FitIQTestBasics
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A running `fitiq-cache-crash-child`, its standard output going to a file.
struct ChildProcess {
    let pid: pid_t
    let output: URL

    /// Starts the child with `arguments`, writing its standard output to `output`.
    static func launch(_ arguments: [String], output: URL) throws -> ChildProcess {
        let executable = try executableURL()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        return ChildProcess(pid: pid, output: output)
    }

    /// The lines the child has completed so far.
    var lines: [String] {
        guard let data = FileManager.default.contents(atPath: output.path) else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        // A line counts once its newline is written.
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until the child has printed `count` lines. The child is another process writing to a file,
    /// so this polls the file for the condition; the generous timeout only guards against a hang.
    func waitForLines(_ count: Int, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while lines.count < count {
            guard ContinuousClock.now < deadline else {
                // Not left running (saving in a loop) after the test gives up on it.
                kill(SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                throw ChildProcessError.timedOut("waiting for \(count) lines from pid \(pid)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Sends `signal`.
    func kill(_ signal: Int32) {
        _ = Glibc.kill(pid, signal)
    }

    /// Waits for the child to end and returns its exit status (or 128 + signal). It polls `waitpid`
    /// for the other process's end; the timeout only guards against a hang (the child is then killed).
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            guard result == 0 else { throw POSIXError(.ECHILD) }
            guard ContinuousClock.now < deadline else {
                kill(SIGKILL)
                throw ChildProcessError.timedOut("waiting for pid \(pid) to exit")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (they are macros).
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// `fitiq-cache-crash-child`, built next to the test bundle (same products folder).
    static func executableURL() throws -> URL {
        try BuiltProducts.executable(named: "fitiq-cache-crash-child")
    }
}

/// Why a child process could not be used.
enum ChildProcessError: Error, CustomStringConvertible {
    case timedOut(String)

    var description: String {
        switch self {
        case .timedOut(let text): text
        }
    }
}
