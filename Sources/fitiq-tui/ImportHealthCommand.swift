import ArgumentParser
import FitIQCore
import FitIQHealth
import FitIQLocalization
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ImportHealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-health",
        abstract: "Import an Apple Health export: biological sex, date of birth, heights, weights and body fat.",
        discussion: """
            PATH is the export.zip the iPhone Health app writes (Profile → Export All Health Data) or the \
            export.xml inside it; the zip is streamed, never unpacked. Biological sex is sent only when it \
            differs from the value on record; each height sample the server lacks becomes one history entry; \
            the newest becomes your current height when it is newer. Importing the same export again sends \
            nothing. The date of birth is shown when it differs from the profile's and is never sent.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The export.zip or export.xml file.") var path: String

    func run() async throws {
        try await withApp(globals) { app in
            let account = try app.requireAccount()
            let url = URL(fileURLWithPath: UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"]))
            let meter = ProgressMeter(label: url.lastPathComponent, terminal: StandardStreams.isTerminal(2))
            let started = ContinuousClock.now
            let result: HealthImportResult
            do {
                result = try await account.importHealth(from: AppleHealthExport(url: url), progress: meter.report)
            } catch {
                meter.end()
                throw error
            }
            meter.end()
            let elapsed = ContinuousClock.now - started
            print(
                tr(
                    "Read {file} in {time} ({figures}).",
                    [
                        "file": TextSanitizer.sanitize(url.path), "time": Output.seconds(elapsed),
                        "figures": meter.figures(elapsed),
                    ]))
            var posted: [String: Int]?
            if result.queuedAnything {
                try await syncAfterWrite(account)
                let synced = try await account.delivered(Set(result.metrics.values.flatMap(\.newEntries)))
                posted = result.metrics.mapValues { $0.newEntries.filter(synced.contains).count }
            } else {
                print(tr("Nothing new to send: the server already has everything in this export."))
            }
            let profile = try await account.view().profile
            for line in result.summary(
                unitSystem: profile?.metadata.preferredUnitSystem ?? .metric, posted: posted,
                profileDateOfBirth: profile?.physical.dateOfBirth)
            {
                print(line)
            }
        }
    }
}

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
