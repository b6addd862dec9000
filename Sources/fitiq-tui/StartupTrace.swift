import FitIQTUI
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the time before the first frame goes: with `FITIQ_TRACE_STARTUP=FILE`, each stage's
/// `CLOCK_MONOTONIC` time (in nanoseconds, comparable with the starting process's clock) is written
/// to FILE once the first frame is drawn. `make bench-startup` prints the breakdown.
enum StartupTrace {
    private static let path: String? = getenv("FITIQ_TRACE_STARTUP").map { String(cString: $0) }
    private static let marks = Mutex<[(String, UInt64)]>([])

    /// Records that `stage` ended now.
    static func mark(_ stage: String) {
        guard path != nil else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        marks.withLock { $0.append((stage, nanoseconds)) }
    }

    /// Records the first frame and writes the trace (once).
    static func firstFrame() {
        guard let path else { return }
        mark("first frame drawn")
        let text = marks.withLock { marks in
            defer { marks = [] }
            return marks.map { "\($0.0)\t\($0.1)\n" }.joined()
        }
        guard !text.isEmpty else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        StandardStreams.write(text, to: descriptor)
        close(descriptor)
    }

    /// A terminal that reports its first frame to the trace; everything else goes to `screen`.
    final class Screen: TerminalScreen {
        private let screen: any TerminalScreen
        private var drawn = false

        init(_ screen: any TerminalScreen) {
            self.screen = screen
        }

        var size: (width: Int, height: Int) { screen.size }
        var usesColor: Bool { screen.usesColor }

        func draw(_ buffer: CellBuffer, cursor: (x: Int, y: Int)?) {
            screen.draw(buffer, cursor: cursor)
            if !drawn {
                drawn = true
                StartupTrace.firstFrame()
            }
        }

        func nextInput(timeout milliseconds: Int) -> TerminalInput? { screen.nextInput(timeout: milliseconds) }
        var waker: @Sendable () -> Void { screen.waker }
        func restore() { screen.restore() }
        func invalidate() { screen.invalidate() }
        func suspend() { screen.suspend() }
        func runOutside(_ body: () -> Void) { screen.runOutside(body) }
    }

    /// Whether a trace was asked for.
    static var isEnabled: Bool { path != nil }
}
