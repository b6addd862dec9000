import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
