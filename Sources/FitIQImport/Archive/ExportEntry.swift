import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One entry of an export: a file on its own or in a folder, or a member of a zip. The walk reads every
/// kind the same way: its first bytes to recognise it, then its bytes in chunks.
struct ExportEntry {
    /// The entry's name as the results give it: its path in the folder or zip, or the file's name.
    let name: String
    /// Where it is, for a message: the file's path, or the zip's path and the member's.
    let place: String
    /// Its first bytes (up to what the walk looks at).
    let head: [UInt8]
    /// Its size, as its file or the zip's directory says.
    let size: UInt64
    /// Where its content starts in the file that holds it (a zip member's data), for progress.
    let offset: Int64
    private let source: Source

    private enum Source {
        case file(ExportFile)
        case member(ZipMemberStream, archive: String)
    }

    /// A file on its own, named `name`.
    init(file: ExportFile, name: String) {
        self.name = name
        place = file.path
        head = Self.head(of: file, bytes: ExportWalk.headBytes)
        size = UInt64(max(file.size, 0))
        offset = 0
        source = .file(file)
    }

    /// The member `entry` of the zip `file`.
    init(member entry: ZipCentralDirectory.Entry, of file: ExportFile, headBytes: Int) throws {
        let member: ZipMemberStream
        do {
            member = try ZipMemberStream(entry: entry, file: file)
        } catch {
            throw ZipExportReader.damaged(file.path, error)
        }
        name = entry.path
        place = "\(file.path) (\(entry.path))"
        head = ZipExportReader.head(of: member, bytes: headBytes)
        size = entry.uncompressedSize
        offset = member.dataOffset
        source = .member(member, archive: file.path)
    }

    /// The last part of its name (`weight-2024-01-01.json`).
    var baseName: String { String(name.split(separator: "/").last ?? "") }

    /// Hands its content to `consumer` in chunks of at most `chunkSize` bytes; a member is inflated,
    /// guarded against zip bombs and checked against its CRC-32 on the way.
    func stream(chunkSize: Int, _ consumer: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch source {
        case .file(let file):
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
            defer { buffer.deallocate() }
            var done: Int64 = 0
            while true {
                let count = try file.readChunk(at: done, into: buffer)
                if count == 0 { break }
                try consumer(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                done += Int64(count)
            }
        case .member(let member, let archive):
            try member.read(archive: archive, bufferSize: chunkSize) { chunk, _ in
                try chunk.withUnsafeBytes { try consumer($0) }
            }
        }
    }

    /// Calls `body` with a path on disk holding its content: the file's own, or, for a zip member, a
    /// file of this process's own, removed after (SQLite reads files).
    func onDisk<Result>(_ body: (String) throws -> Result) throws -> Result {
        if case .file(let file) = source { return try body(file.path) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fitiq-import-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("entry").path
        try ExportFile.writeCopy(to: copy) { write in
            try stream(chunkSize: ExportWalk.chunkSize) { try write(Data($0)) }
        }
        return try body(copy)
    }

    /// Whether `file` starts as a zip does (a local header, or the end record of an empty zip).
    static func isZip(_ file: ExportFile) throws -> Bool {
        let head = head(of: file, bytes: 4)
        return head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    static func head(of file: ExportFile, bytes limit: Int) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: limit)
        let count = (try? head.withUnsafeMutableBytes { try file.readChunk(at: 0, into: $0) }) ?? 0
        return Array(head.prefix(count))
    }
}
