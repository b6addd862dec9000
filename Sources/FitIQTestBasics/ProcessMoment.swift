import Foundation

/// A moment in the life of a running `fitiq-tui`, told by what it holds open (`/proc/PID/fd`), never by
/// the time passed: where a test's kill lands.
public enum ProcessMoment: String, CaseIterable, Sendable {
    case atOnce = "at once"
    case holdingTheAccountLock = "holding the account lock"
    /// Writing the history's month files or `account.json`: a temporary file open, not yet renamed.
    case writingACacheFile = "writing a cache file"

    /// The paths `pid` holds open now.
    public static func openFiles(of pid: pid_t) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) }
    }

    /// Whether `pid` is at this moment now.
    public func isReached(by pid: pid_t) -> Bool {
        switch self {
        case .atOnce: true
        case .holdingTheAccountLock: Self.openFiles(of: pid).contains { $0.hasSuffix("/lock") }
        case .writingACacheFile: Self.openFiles(of: pid).contains { $0.contains(".tmp-") }
        }
    }

    /// Waits until `pid` is at this moment, or `hasEnded` says it ended, or `timeout` passed (a hang
    /// guard: the moment may come and go between two looks). `/proc` tells of no change, so it looks
    /// again and again, yielding, never sleeping. Whether the moment was seen.
    @discardableResult
    public func wait(for pid: pid_t, hasEnded: () -> Bool, within timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !hasEnded() && ContinuousClock.now < deadline {
            if isReached(by: pid) { return true }
            await Task.yield()
        }
        return false
    }
}
