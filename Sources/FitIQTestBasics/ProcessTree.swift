import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Processes by id, read from `/proc`: used only to end what a test started.
public enum ProcessTree {
    /// Every live descendant of `pid`.
    public static func descendants(of pid: Int32) -> [Int32] {
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
    public static func reap(_ pids: [Int32], within timeout: Duration) {
        for pid in stillRunning(pids, after: timeout) { Foundation.kill(pid, SIGKILL) }
    }

    /// Waits until every one of `pids` has ended, or `timeout` passed; returns those still running.
    /// Each is watched through a pidfd (`pidfd_open`, Linux 5.3), which `poll` reports readable when
    /// the process ends: woken by the end itself, whoever's child it is.
    public static func stillRunning(_ pids: [Int32], after timeout: Duration) -> [Int32] {
        guard dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") != nil else { return pids.filter(isAlive) }
        // A process already gone has no pidfd to open.
        var watched = pids.compactMap { pid in pidfd(pid).map { (pid: pid, fd: $0) } }
        defer { watched.forEach { close($0.fd) } }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !watched.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var polled = watched.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), milliseconds(left)) >= 0 || errno == EINTR else {
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
    public static func ended(_ pid: Int32, within timeout: Duration) async -> Bool {
        await offThePool { stillRunning([pid], after: timeout).isEmpty }
    }

    /// Runs `work`, which blocks (`poll`, `waitpid`), on a thread of its own and awaits its result: the
    /// threads of the task pool, which every test shares, are never held by a wait.
    public static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }

    /// The command name of `pid` (`/proc/PID/comm`), if it runs.
    public static func name(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Whether `pid` is running (a zombie counts as ended).
    public static func isAlive(_ pid: Int32) -> Bool {
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

    /// A `poll` timeout: `duration` in whole milliseconds, rounded up.
    public static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// A pidfd of `pid` (`pidfd_open`, Linux 5.3): `poll` reports it readable once the process has
    /// ended, whoever's child it is. `nil` when the process is gone or the kernel has none.
    public static func pidfd(_ pid: Int32) -> Int32? {
        typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
        let fd = unsafeBitCast(symbol, to: PidfdOpen.self)(pid, 0)
        return fd >= 0 ? fd : nil
    }
}
