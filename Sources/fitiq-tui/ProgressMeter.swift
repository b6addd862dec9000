import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Shows how far a reading has got: a bar redrawn in place on a terminal, a line every 10 % otherwise.
final class ProgressMeter: Sendable {
    private struct State {
        var lastDraw = ContinuousClock.now - .seconds(1)
        var lastTenth = -1
        var bytes: Int64 = 0
        var drewBar = false
    }

    private let label: String
    private let terminal: Bool
    private let state = Mutex(State())

    init(label: String, terminal: Bool) {
        self.label = TextSanitizer.sanitize(label)
        self.terminal = terminal
    }

    /// Records progress; called from the reading thread.
    @Sendable func report(_ progress: HealthReadProgress) {
        let line: String? = state.withLock { state in
            state.bytes = progress.bytesRead
            let fraction = progress.totalBytes.map { $0 > 0 ? Double(progress.bytesRead) / Double($0) : 1 }
            if terminal {
                let now = ContinuousClock.now
                guard now - state.lastDraw >= .milliseconds(100) || fraction == 1 else { return nil }
                state.lastDraw = now
                state.drewBar = true
                return "\r" + Self.bar(label: label, fraction: fraction, bytes: progress.bytesRead)
            }
            guard let fraction else { return nil }
            let tenth = Int(fraction * 10)
            guard tenth > state.lastTenth else { return nil }
            state.lastTenth = tenth
            return "Reading \(label): \(tenth * 10) %\n"
        }
        if let line { StandardStreams.writeError(line) }
    }

    /// Ends the bar's line.
    func end() {
        if state.withLock({ $0.drewBar }) { StandardStreams.writeError("\n") }
    }

    /// Size and throughput, e.g. `215.3 MB at 102.4 MB/s`.
    func figures(_ elapsed: Duration) -> String {
        let megabytes = Double(state.withLock { $0.bytes }) / 1_000_000
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? megabytes / seconds : 0
        return "\(DecimalText.format(megabytes, places: 1)) MB at \(DecimalText.format(rate, places: 1)) MB/s"
    }

    static func bar(label: String, fraction: Double?, bytes: Int64, width: Int = 30) -> String {
        let megabytes = DecimalText.format(Double(bytes) / 1_000_000, places: 1) + " MB"
        guard let fraction else { return "Reading \(label)  \(megabytes)" }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "Reading \(label)  \(bar) \(Int(fraction * 100)) %  \(megabytes)"
    }
}
