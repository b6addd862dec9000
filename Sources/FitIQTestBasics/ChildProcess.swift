import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test runs as another process. Every child process of the tests starts here.
///
/// - Spawned with `posix_spawn` the way a shell would: inheriting no file but its standard input,
///   output and error, with no signal blocked and every signal's default handling (Foundation's
///   `Process` on Linux can miss a child's end and spin in `waitUntilExit`: it hung a test run twice;
///   and it passes on the test runner's blocked signals: a tmux server started so ignores
///   `kill-server`).
/// - Its end is awaited by a blocking `waitpid` on a thread of its own, and its output read by a
///   blocking `read` on another: nothing polls, and a waiter wakes when what it waits for happens.
/// - A test waits for a state of its output (``waitForLines(within:_:)``) or for its end
///   (``exit(within:)``); the deadline of each is a hang guard only.
/// - A child still running when the test lets go of it is killed.
public final class ChildProcess: Sendable {
    /// Where the child's standard output (and standard error) go.
    public enum Output: Sendable {
        /// To this file (made or emptied).
        case file(URL)
        /// To the test, line by line (``lines``).
        case lines
        case discarded
    }

    /// The child's standard input.
    public enum Input: Sendable {
        /// This file.
        case file(URL)
        /// A pipe this process holds open until ``closeInput()``, or until it ends, however it ends: a
        /// child that stops at the end of its input never outlives the test process.
        case heldOpen
        case nothing
    }

    public let pid: pid_t
    /// The write end of a ``Input/heldOpen`` input (-1 when closed or none).
    private let inputEnd = Atomic<Int32>(-1)
    /// What the waiting and reading threads tell the test.
    private let shared: Shared

    private final class Shared: Sendable {
        let reaped = Atomic(false)
        let output = Mutex(LineState())
        /// The exit status once reaped, and who waits for it: tasks (``exit(within:)``), and a semaphore
        /// signalled then (``waitBlocking()``).
        let end = Mutex(EndState())
        let ended = DispatchSemaphore(value: 0)
    }
    /// The reader's end: standard output (and error) closed by every process holding them.
    private let outputClosed: Task<Void, Never>

    private struct EndState {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private struct LineState {
        var lines: [String] = []
        var closed = false
        var waiters: [(id: Int, wanted: @Sendable ([String]) -> Bool, wake: CheckedContinuation<Void, Never>)] = []
        var nextWaiter = 0
        /// Waiters whose deadline passed.
        var expired: Set<Int> = []
    }

    /// Why a child could not be started or did not get where the test waited for.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Starts `arguments[0]` (a path) with the rest as arguments, and `environment` as its whole
    /// environment (`nil`: this process's). Standard output goes to `output`, and standard error to
    /// `errors` (`nil`: where standard output goes).
    public convenience init(
        _ arguments: [String], environment: [String: String]? = nil, input: Input = .nothing, output: Output,
        errors: Output? = nil
    ) throws {
        try self.init(
            bytes: arguments.map { Array($0.utf8) }, environment: environment, input: input, output: output,
            errors: errors)
    }

    /// The same with each argument as bytes, which need not be UTF-8 (a test of bad input).
    public init(
        bytes arguments: [[UInt8]], environment: [String: String]? = nil, input: Input = .nothing, output: Output,
        errors: Output? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inputEnds: [Int32] = [-1, -1]
        switch input {
        case .file(let url): posix_spawn_file_actions_addopen(&actions, 0, url.path, O_RDONLY, 0)
        case .nothing: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .heldOpen:
            guard pipe(&inputEnds) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
            for end in inputEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
        }
        // The pipe's ends are closed on exec (and by closeInheritedFiles in every child the tests start):
        // only the copies made for the child stay open in it.
        var pipeEnds: [Int32] = [-1, -1]
        let wantsLines = [output, errors ?? output].contains { if case .lines = $0 { true } else { false } }
        if wantsLines {
            guard pipe(&pipeEnds) == 0 else { throw Failure(description: "pipe: errno \(errno)") }
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        }
        for (descriptor, target) in [(Int32(1), output), (Int32(2), errors ?? output)] {
            switch target {
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, descriptor, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .lines: posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], descriptor)
            case .discarded: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        Self.closeInheritedFiles(&actions)
        let environment = environment ?? ProcessInfo.processInfo.environment
        // Each argument copied with its terminating zero (the array is never empty, so it has an address).
        let argv: [UnsafeMutablePointer<CChar>?] =
            arguments.map { bytes in
                (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { $0.baseAddress.flatMap(strdup) }
            } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard let path = argv[0] else { throw Failure(description: "no program to start") }
        var attributes = Self.shellLikeAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        let spawned = Self.spawns.spawning { posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        if wantsLines { close(pipeEnds[1]) }
        if inputEnds[0] >= 0 { close(inputEnds[0]) }
        guard spawned == 0 else {
            if wantsLines { close(pipeEnds[0]) }
            if inputEnds[1] >= 0 { close(inputEnds[1]) }
            let path = String(decoding: arguments[0], as: UTF8.self)
            throw Failure(description: "\(path) could not be started: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        inputEnd.store(inputEnds[1], ordering: .relaxed)
        let child = pid
        let shared = Shared()
        self.shared = shared
        // A thread of its own, started here and not from a task: a caller of ``run(_:environment:)``
        // may hold every thread of the task pool while it waits.
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            shared.reaped.store(true, ordering: .releasing)
            // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out (they are macros).
            let signal = status & 0x7f
            let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
            let waiters = shared.end.withLock { end in
                end.status = exitStatus
                defer { end.waiters = [] }
                return end.waiters
            }
            shared.ended.signal()
            waiters.forEach { $0.resume(returning: exitStatus) }
        }
        guard wantsLines else {
            outputClosed = Task {}
            shared.output.withLock { $0.closed = true }
            return
        }
        let readEnd = pipeEnds[0]
        let (closed, closing) = AsyncStream.makeStream(of: Void.self)
        outputClosed = Task { for await _ in closed {} }
        Thread.detachNewThread {
            var pending = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                pending += buffer[..<count]
                // A line counts once its newline is read.
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    Self.received(line, into: shared)
                }
            }
            close(readEnd)
            Self.received(nil, into: shared)
            closing.finish()
        }
    }

    /// Records `line` (`nil`: the output closed) and wakes the waiters whose state came.
    private static func received(_ line: String?, into shared: Shared) {
        let woken = shared.output.withLock { state in
            if let line { state.lines.append(line) } else { state.closed = true }
            let lines = state.lines
            let (ready, waiting) = (
                state.waiters.filter { state.closed || $0.wanted(lines) },
                state.waiters.filter { !state.closed && !$0.wanted(lines) }
            )
            state.waiters = waiting
            return ready.map(\.wake)
        }
        woken.forEach { $0.resume() }
    }

    /// Whether the child has ended (and been reaped).
    public var hasEnded: Bool { shared.reaped.load(ordering: .acquiring) }

    /// The lines of standard output (with ``Output/lines``) read so far.
    public var lines: [String] { shared.output.withLock { $0.lines } }

    /// Closes a ``Input/heldOpen`` input: the child reads its end.
    public func closeInput() {
        let end = inputEnd.exchange(-1, ordering: .acquiringAndReleasing)
        if end >= 0 { close(end) }
    }

    /// A child still running when the test lets go of it is killed: nothing outlives its test.
    deinit {
        closeInput()
        signal(SIGKILL)
    }

    /// Sends `signal`, unless the child has ended (its pid may be another process's by then).
    public func signal(_ signal: Int32) {
        guard !hasEnded else { return }
        _ = kill(pid, signal)
    }

    /// Waits until the lines read so far satisfy `wanted`, and returns them. Throws when the output
    /// closed first, or when `timeout` passed (a hang guard).
    @discardableResult
    public func waitForLines(
        within timeout: Duration = .seconds(30), _ wanted: @escaping @Sendable ([String]) -> Bool
    ) async throws -> [String] {
        let id = shared.output.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let shared = shared
        let guardian = Task {
            try await Task.sleep(for: timeout)
            let expired = shared.output.withLock { state in
                state.expired.insert(id)
                defer { state.waiters.removeAll { $0.id == id } }
                return state.waiters.first { $0.id == id }?.wake
            }
            expired?.resume()
        }
        await withCheckedContinuation { (wake: CheckedContinuation<Void, Never>) in
            let now = shared.output.withLock { state -> Bool in
                if state.closed || state.expired.contains(id) || wanted(state.lines) { return true }
                state.waiters.append((id, wanted, wake))
                return false
            }
            if now { wake.resume() }
        }
        guardian.cancel()
        let (lines, expired) = shared.output.withLock { ($0.lines, $0.expired.contains(id)) }
        guard wanted(lines) else {
            let why = expired ? "did not write them within \(timeout)" : "ended its output first"
            throw Failure(
                description: "pid \(pid) was awaited for some lines and \(why); it wrote:\n"
                    + lines.suffix(40).joined(separator: "\n"))
        }
        return lines
    }

    /// Waits for the child's end and returns its exit status, or 128 + the signal that ended it; with
    /// ``Output/lines``, every line it wrote has been read by then. After `timeout` (a hang guard) the
    /// child is killed, and 128 + `SIGKILL` returned.
    @discardableResult
    public func exit(within timeout: Duration = .seconds(60)) async -> Int32 {
        let guardian = Task {
            try await Task.sleep(for: timeout)
            signal(SIGKILL)
        }
        defer { guardian.cancel() }
        let shared = shared
        let status = await withCheckedContinuation { (waiter: CheckedContinuation<Int32, Never>) in
            let now = shared.end.withLock { end -> Int32? in
                if end.status == nil { end.waiters.append(waiter) }
                return end.status
            }
            if let now { waiter.resume(returning: now) }
        }
        await outputClosed.value
        return status
    }

    /// Runs `arguments` to its end, its standard output and error to a file (a tmux server lives on
    /// after the client that started it and would hold a pipe open); returns its exit status and what
    /// it wrote. For the short commands a test runs outside `async` code (tmux's); blocks until the
    /// command ends.
    public static func run(_ arguments: [String], environment: [String: String]) throws -> (
        status: Int32, output: String
    ) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fitiq-child-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try ChildProcess(arguments, environment: environment, output: .file(output))
        let status = child.waitBlocking()
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Blocks this thread until the child ends; its exit status (as ``exit(within:)`` gives it). Woken
    /// by the waiting thread itself, not through a task: it may block a thread of the task pool.
    private func waitBlocking() -> Int32 {
        shared.ended.wait()
        shared.ended.signal()
        return shared.end.withLock { $0.status ?? 0 }
    }

    /// Returns once every child being spawned now has closed its copies of this process's files. A
    /// child has a copy of every descriptor from the moment it is made until it closes them (before
    /// its program runs, by the time `posix_spawn` returns): a socket closed meanwhile still lives in
    /// it. A stopped server calls this, so no copy keeps its port listening or bound (a restart found
    /// it in use now and then). Every child of the tests starts here, so none is missed.
    public static func waitForSpawnsInFlight() {
        spawns.waitForReaders()
    }

    /// Spawns take it shared; ``waitForSpawnsInFlight()`` alone, for a moment.
    private static let spawns = ReadersWriterLock()

    /// Spawn attributes for a child started as a shell starts one: an empty signal mask, and every
    /// signal's default handling.
    private static func shellLikeAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return attributes
    }

    /// Closes every file but standard input, output and error in the child (a child must not hold the
    /// test's sockets and pipes): glibc's `posix_spawn_file_actions_addclosefrom_np` when there is one
    /// (Swift's Glibc module does not declare it), else each descriptor open now.
    public static func closeInheritedFiles(_ actions: inout posix_spawn_file_actions_t) {
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

/// A pthread readers-writer lock that lets a waiting writer in before new readers.
private final class ReadersWriterLock: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)

    init() {
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    func spawning<T>(_ body: () -> T) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    func waitForReaders() {
        pthread_rwlock_wrlock(lock)
        pthread_rwlock_unlock(lock)
    }
}
