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

/// A file opened read-only with POSIX calls, read into one reusable buffer (no per-chunk allocation).
final class ExportFile {
    /// What the file's first bytes say it is.
    enum Kind: Equatable {
        case zip, xml
    }

    let path: String
    let size: Int64
    private let descriptor: Int32

    /// Opens `url` for reading.
    init(url: URL) throws {
        path = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(url.path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = Self.failure(url.path)
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw HealthImportError.unreadable(path: url.path, reason: "not a regular file")
        }
        size = Int64(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes at the current position; returns how many (0 at the end).
    func readChunk(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw Self.failure(path) }
        }
    }

    /// Reads up to `buffer.count` bytes at `offset` (fewer only at the end of the file).
    func readChunk(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var total = 0
        while total < buffer.count {
            let count = pread(
                descriptor, buffer.baseAddress?.advanced(by: total), buffer.count - total, off_t(offset) + off_t(total))
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(path)
            }
            total += count
        }
        return total
    }

    /// Writes what `produce` hands over into a new file at `path` (readable by this user alone); the
    /// file must not exist yet.
    static func writeCopy(to path: String, _ produce: ((Data) throws -> Void) throws -> Void) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path) }
        defer { close(descriptor) }
        try produce { chunk in
            try chunk.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                var written = 0
                while written < bytes.count {
                    let count = write(descriptor, base + written, bytes.count - written)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { throw failure(path) }
                    written += count
                }
            }
        }
    }

    /// Sniffs the content (not the extension): a zip local header or end record, else XML starting with `<`.
    func kind() throws -> Kind {
        var head = [UInt8](repeating: 0, count: 64)
        let count = try head.withUnsafeMutableBytes { buffer in
            let count = pread(descriptor, buffer.baseAddress, buffer.count, 0)
            guard count >= 0 else { throw Self.failure(path) }
            return count
        }
        let bytes = head.prefix(count)
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
            return .zip
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes
        let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard first == UInt8(ascii: "<") else { throw HealthImportError.notAnExport(path: path) }
        return .xml
    }

    private static func failure(_ path: String) -> HealthImportError {
        .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
}
