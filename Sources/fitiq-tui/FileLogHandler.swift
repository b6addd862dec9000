import FitIQCore
import Logging
import Synchronization

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

/// Appends log lines to a file (mode 0600). Callers never pass secrets; messages are sanitized anyway.
struct FileLogHandler: LogHandler {
    private let sink: Sink
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    /// The log file shared by every logger of the process, opened at the first line (a run that
    /// sends nothing leaves no file), with `O_APPEND`: lines of several processes never overwrite each other.
    final class Sink: Sendable {
        private let url: URL
        private let descriptor = Mutex<Int32?>(nil)

        init(url: URL) {
            self.url = url
        }

        deinit {
            descriptor.withLock { if let open = $0, open >= 0 { close(open) } }
        }

        func write(_ line: String) {
            descriptor.withLock { descriptor in
                if descriptor == nil {
                    try? FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                        attributes: [.posixPermissions: 0o700])
                    descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                }
                if let open = descriptor, open >= 0 { StandardStreams.write(line, to: open) }
            }
        }
    }

    init(label: String, sink: Sink) {
        self.label = label
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let time = RFC3339.format(Date())
        let pid = ProcessInfo.processInfo.processIdentifier
        sink.write("\(time) [\(pid)] \(event.level) \(label): \(event.message)\n")
    }
}
