import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The lock of one account, shared by every task and every fitiq-tui process using the account.
///
/// Processes exclude each other with `flock` on a lock file, whose holder writes its pid there so a
/// waiter can say who holds it; tasks of one process also queue on an in-process gate, so they wait
/// in order without polling. Hold it only around one read-modify-write or one token refresh.
/// Nested use by the same task (for example a store update inside a session exchange) does not deadlock.
public final class AccountLock: Sendable {
    /// The lock file.
    public let file: URL
    /// How long to wait for another process before giving up.
    public let timeout: Duration
    /// How often to try again while another process holds the lock.
    public let pollInterval: Duration

    private let gate = AsyncGate()

    /// Paths of the locks the current task holds, so nested use runs straight away.
    @TaskLocal private static var heldFiles: Set<String> = []

    /// Creates the lock for `file`; nothing is opened until the lock is taken.
    public init(file: URL, timeout: Duration = .seconds(5), pollInterval: Duration = .milliseconds(25)) {
        self.file = file.standardizedFileURL
        self.timeout = timeout
        self.pollInterval = pollInterval
    }

    /// Runs `body` holding the lock.
    ///
    /// - Throws: ``CacheError/locked(pid:path:)`` when another process held it for longer than
    ///   ``timeout``, or whatever `body` throws.
    public func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let key = file.path
        if Self.heldFiles.contains(key) { return try await body() }
        await gate.enter()
        defer { gate.leave() }
        let descriptor = try await lockFile()
        defer { unlockFile(descriptor) }
        return try await Self.$heldFiles.withValue(Self.heldFiles.union([key])) { try await body() }
    }

    private func lockFile() async throws -> Int32 {
        try CacheDirectory.ensure(file.deletingLastPathComponent())
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CacheError.fileSystem(path: file.path, reason: "cannot open the lock file: \(ErrnoText.current)")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                recordHolder(descriptor)
                return descriptor
            }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(descriptor)
                throw CacheError.fileSystem(path: file.path, reason: "cannot lock it: \(ErrnoText.describe(code))")
            }
            if clock.now >= deadline {
                let holder = Self.holderPid(descriptor)
                close(descriptor)
                throw CacheError.locked(pid: holder, path: file.path)
            }
            do {
                try await Task.sleep(for: pollInterval)
            } catch {
                close(descriptor)
                throw error
            }
        }
    }

    /// Writes this process's pid into the lock file, for waiters' messages.
    private func recordHolder(_ descriptor: Int32) {
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private func unlockFile(_ descriptor: Int32) {
        _ = ftruncate(descriptor, 0)
        _ = flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The pid the holder wrote, if it has written it yet.
    private static func holderPid(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return Int32(text.trimmingWhitespace())
    }
}

/// The processes of this machine, as `/proc` shows them: who holds an outbox claim, and whether it
/// still runs.
public enum LocalProcesses {
    /// This process, or `nil` where `/proc` cannot be read.
    public static let current: ProcessIdentity? = identity(of: getpid())

    /// Whether `process` still runs: its pid exists, is not a zombie, and started when it did.
    @Sendable public static func isRunning(_ process: ProcessIdentity) -> Bool {
        identity(of: process.pid) == process
    }

    /// Whether process `pid` runs (whoever it is; a zombie has ended).
    public static func isRunning(pid: Int32) -> Bool {
        identity(of: pid) != nil
    }

    /// The pid and start time of `pid`, or `nil` when it does not run.
    static func identity(of pid: Int32) -> ProcessIdentity? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return parseStat(stat, pid: pid)
    }

    /// Reads `/proc/PID/stat`: the command name is in parentheses and may hold spaces and `)`, so the
    /// fields are counted after its last `)`; the state is field 3, the start time field 22.
    static func parseStat(_ stat: String, pid: Int32) -> ProcessIdentity? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X", let start = UInt64(fields[19]) else { return nil }
        return ProcessIdentity(pid: pid, startTime: start)
    }
}
