import FitIQCore
import Synchronization

/// A cancellation request shared between the calling task and the reading thread.
final class CancellationFlag: Sendable {
    private let state = Mutex(false)

    /// Whether the read has been cancelled.
    var isCancelled: Bool { state.withLock { $0 } }

    /// Asks the read to stop at its next chunk.
    func cancel() {
        state.withLock { $0 = true }
    }
}

/// One read in progress: cancellation checks and throttled progress reports, used from the reading thread.
final class ReadSession {
    /// The size of the file on disk; progress is reported against it.
    let totalBytes: Int64
    private let flag: CancellationFlag
    private let report: @Sendable (HealthReadProgress) -> Void
    private let now: () -> ContinuousClock.Instant
    private var lastBytes: Int64 = -1
    private var lastTime: ContinuousClock.Instant

    init(
        totalBytes: Int64, flag: CancellationFlag, report: @escaping @Sendable (HealthReadProgress) -> Void,
        now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.totalBytes = totalBytes
        self.flag = flag
        self.report = report
        self.now = now
        self.lastTime = now()
    }

    /// Throws `CancellationError` when the read has been cancelled.
    func checkCancellation() throws {
        if flag.isCancelled { throw CancellationError() }
    }

    /// Notes that `bytesRead` bytes of the file have been read; reports at most every 1 % or 100 ms.
    func advance(to bytesRead: Int64) {
        let bytes = min(max(bytesRead, 0), totalBytes)
        guard bytes > lastBytes else { return }
        let instant = now()
        let step = max(totalBytes / 100, 1)
        guard lastBytes < 0 || bytes - lastBytes >= step || instant - lastTime >= .milliseconds(100) else { return }
        send(bytes, at: instant)
    }

    /// Reports the whole file as read.
    func finish() {
        if lastBytes < totalBytes { send(totalBytes, at: now()) }
    }

    private func send(_ bytes: Int64, at instant: ContinuousClock.Instant) {
        lastBytes = bytes
        lastTime = instant
        report(HealthReadProgress(bytesRead: bytes, totalBytes: totalBytes))
    }
}
