import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An iPhone Health app export (`export.zip` or `export.xml`) on disk, read as the health source.
///
/// The file is streamed in about 1 MiB chunks on a thread of its own (``OwnThread``: parsing is
/// CPU-bound work that should not hold a cooperative-pool thread), with memory that stays flat whatever its size. The
/// format is recognised by content, not by extension. Any error fails the whole read: a partial
/// export is never returned.
public struct AppleHealthExport: HealthSource {
    /// The export file.
    public let url: URL
    let chunkSize: Int

    /// The export file's name (`export.zip`).
    public var name: String? { url.lastPathComponent }

    /// Reads the export at `url` (a zip archive or the XML file itself).
    public init(url: URL) {
        self.init(url: url, chunkSize: 1 << 20)
    }

    init(url: URL, chunkSize: Int) {
        self.url = url
        self.chunkSize = max(chunkSize, 64)
    }

    public func read(progress: @escaping @Sendable (HealthReadProgress) -> Void) async throws -> HealthSnapshot {
        let flag = CancellationFlag()
        let url = url
        let chunkSize = chunkSize
        return try await withTaskCancellationHandler {
            try await OwnThread.run {
                try Self.readNow(url: url, chunkSize: chunkSize, flag: flag, progress: progress)
            }
        } onCancel: {
            flag.cancel()
        }
    }

    /// Reads the export synchronously on the calling thread.
    static func readNow(
        url: URL, chunkSize: Int, flag: CancellationFlag,
        progress: @escaping @Sendable (HealthReadProgress) -> Void
    ) throws -> HealthSnapshot {
        if flag.isCancelled { throw CancellationError() }
        let file = try ExportFile(url: url)
        let session = ReadSession(totalBytes: file.size, flag: flag, report: progress)
        session.advance(to: 0)
        let snapshot: HealthSnapshot
        switch try file.kind() {
        case .zip:
            snapshot = try ZipExportReader(url: url, bufferSize: chunkSize).read(file, session: session)
        case .xml:
            snapshot = try readXML(file, chunkSize: chunkSize, session: session)
        }
        session.finish()
        return snapshot
    }

    private static func readXML(_ file: ExportFile, chunkSize: Int, session: ReadSession) throws -> HealthSnapshot {
        let parser = try HealthXMLParser(fileName: file.path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var bytesRead: Int64 = 0
        while true {
            try session.checkCancellation()
            let count = try file.readChunk(into: buffer)
            if count == 0 { break }
            bytesRead += Int64(count)
            try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            session.advance(to: bytesRead)
        }
        return try parser.finish()
    }

    /// Whether `url` is an Apple Health export: `export.xml`, or a zip whose `*/export.xml` member
    /// starts like one (read as a ``HealthSource``, for biological sex and the date of birth too).
    public static func isExport(_ url: URL) -> Bool {
        guard let file = try? ExportFile(url: url), let kind = try? file.kind() else { return false }
        switch kind {
        case .xml: return ZipExportReader.looksLikeHealthExport(ExportEntry.head(of: file, bytes: 1024))
        case .zip:
            guard let directory = try? ZipCentralDirectory(file: file) else { return false }
            return directory.entries.contains { entry in
                guard entry.isFile, ZipExportReader.isCandidate(entry.path),
                    let member = try? ZipMemberStream(entry: entry, file: file)
                else { return false }
                return ZipExportReader.looksLikeHealthExport(ZipExportReader.head(of: member))
            }
        }
    }
}
