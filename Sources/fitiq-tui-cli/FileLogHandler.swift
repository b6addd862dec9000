import Foundation
import Logging
import Synchronization

/// Appends log lines to a file (mode 0600). Callers never pass secrets; messages are sanitized anyway.
struct FileLogHandler: LogHandler {
    private let sink: Sink
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    /// An open log file shared by every logger of the process.
    final class Sink: Sendable {
        private let handle: Mutex<FileHandle?>

        init(url: URL) {
            let manager = FileManager.default
            try? manager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if !manager.fileExists(atPath: url.path) {
                _ = manager.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let handle = try? FileHandle(forWritingTo: url)
            _ = try? handle?.seekToEnd()
            self.handle = Mutex(handle)
        }

        func write(_ line: String) {
            handle.withLock { handle in try? handle?.write(contentsOf: Data(line.utf8)) }
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
        let time = ISO8601DateFormatter().string(from: Date())
        let pid = ProcessInfo.processInfo.processIdentifier
        sink.write("\(time) [\(pid)] \(event.level) \(label): \(event.message)\n")
    }
}
