import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's contents atomically: a reader, or a crash at any moment, sees the old file or the
/// new one, never a mix.
///
/// The bytes go to a uniquely named temporary file in the same folder, which is flushed to disk, renamed
/// over the target, and the folder flushed so the rename itself survives a power loss. On any failure the
/// temporary file is removed and the old file is left as it was.
struct AtomicFile: Sendable {
    /// The system calls used, replaceable in tests to simulate failures such as a full disk.
    struct SystemCalls: Sendable {
        var write: @Sendable (Int32, UnsafeRawBufferPointer) -> Int = posixWrite
        var fsync: @Sendable (Int32) -> Int32 = posixFsync
        var rename: @Sendable (String, String) -> Int32 = posixRename
    }

    let url: URL
    /// The file's mode, applied whatever the umask (0600: only the user reads the cache).
    var permissions: mode_t = 0o600
    var system = SystemCalls()

    /// The prefix of this file's temporary files: `.account.json.tmp-`.
    var temporaryPrefix: String { ".\(url.lastPathComponent).tmp-" }

    /// Writes `data` as the file's new contents.
    func write(_ data: Data) throws(CacheError) {
        let folder = url.deletingLastPathComponent()
        try CacheDirectory.ensure(folder)
        removeStaleTemporaryFiles()
        let temporary = folder.appendingPathComponent(
            "\(temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        do throws(CacheError) {
            try writeTemporary(data, to: temporary.path)
            if system.rename(temporary.path, url.path) != 0 {
                throw CacheError.writeFailed(
                    path: url.path, reason: "cannot rename the new version into place: \(ErrnoText.current)")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        syncFolder(folder)
    }

    private func writeTemporary(_ data: Data, to path: String) throws(CacheError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .writeFailed(path: url.path, reason: ErrnoText.current) }
        defer { close(fd) }
        // `open` honours the umask; set the mode explicitly so it is exactly `permissions`.
        guard fchmod(fd, permissions) == 0 else { throw .writeFailed(path: url.path, reason: ErrnoText.current) }
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = system.write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if written == 0 {
                    failure = EIO
                    return
                }
                offset += written
            }
        }
        if let failure { throw .writeFailed(path: url.path, reason: ErrnoText.describe(failure)) }
        guard system.fsync(fd) == 0 else { throw .writeFailed(path: url.path, reason: ErrnoText.current) }
    }

    /// Flushes the folder entry; a failure here cannot undo the rename, so it is not reported.
    private func syncFolder(_ folder: URL) {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = system.fsync(fd)
        close(fd)
    }

    /// Removes temporary files left by writers that were killed mid-write (their process no longer exists).
    func removeStaleTemporaryFiles() {
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(temporaryPrefix) {
            let rest = name.dropFirst(temporaryPrefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder.appendingPathComponent(name).path)
            }
        }
    }
}

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    return write(fd, base, buffer.count)
}

private func posixFsync(_ fd: Int32) -> Int32 { fsync(fd) }

private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

/// Creates and removes the cache's folders; every folder it creates is private to the user (0700).
enum CacheDirectory {
    /// Creates `url` and any missing parents with mode 0700.
    static func ensure(_ url: URL) throws(CacheError) {
        let path = url.standardizedFileURL.path
        if isFolder(path) { return }
        let parent = url.standardizedFileURL.deletingLastPathComponent()
        if parent.path != path { try ensure(parent) }
        // `mkdir` applies the umask, which can only remove bits: 0700 stays 0700 under any usual umask.
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw .fileSystem(path: path, reason: "cannot create the folder: \(ErrnoText.current)")
        }
    }

    /// Removes `url` and everything in it; a missing folder is not an error.
    static func remove(_ url: URL) throws(CacheError) {
        let path = url.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw .fileSystem(path: path, reason: "cannot remove it: \(error)")
        }
    }

    /// Whether `path` names a folder (following symbolic links).
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Removes `url` if it is an empty folder, leaving it otherwise.
    static func removeIfEmpty(_ url: URL) {
        _ = rmdir(url.standardizedFileURL.path)
    }
}

/// Turns `errno` values into the text shown in cache errors.
enum ErrnoText {
    /// `No space left on device (errno 28)`.
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }

    /// The text of the current `errno`.
    static var current: String { describe(errno) }
}

/// One versioned JSON cache file: reads it, writes it atomically and moves it aside when unreadable.
struct CacheFile<Format: VersionedFileFormat>: Sendable {
    /// What reading the file gave.
    enum Contents {
        case missing
        case value(Format.Value)
        /// The file exists but cannot be used, for `reason`.
        case unreadable(reason: String)
        /// A newer fitiq-tui wrote it (schema `version`): it is never moved aside or overwritten.
        case newer(version: Int)
    }

    let url: URL
    var atomicFile: AtomicFile
    /// The clock naming moved-aside files.
    let now: @Sendable () -> Date

    init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.atomicFile = AtomicFile(url: url, permissions: 0o600)
        self.now = now
    }

    var path: String { url.path }

    /// Reads and decodes the file.
    func contents() throws(CacheError) -> Contents {
        guard let data = try readData() else { return .missing }
        return Self.decode(data)
    }

    /// The error for a file of schema `version`, newer than this build reads (the file stays as it is).
    func newer(_ version: Int) -> CacheError {
        .newerVersion(path: path, version: version, supported: Format.schemaVersion)
    }

    /// Reads the file; an unreadable file is moved aside and reported. Call it holding the account lock.
    func readRecovering() throws(CacheError) -> Format.Value? {
        switch try contents() {
        case .missing: return nil
        case .value(let value): return value
        case .unreadable(let reason): throw moveAside(reason: reason)
        case .newer(let version): throw newer(version)
        }
    }

    /// Replaces the file with `value`; returns the bytes written.
    @discardableResult
    func write(_ value: Format.Value) throws(CacheError) -> Data {
        try write { try Self.encode(value) }
    }

    /// Replaces the file with what `encode` returns (``encode(_:)``'s bytes, made another way).
    @discardableResult
    func write(_ encode: () throws -> Data) throws(CacheError) -> Data {
        let data: Data
        do {
            data = try encode()
        } catch {
            throw .writeFailed(path: path, reason: "cannot encode it: \(error)")
        }
        try atomicFile.write(data)
        return data
    }

    /// Deletes the file; a missing file is not an error.
    func delete() throws(CacheError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .fileSystem(path: path, reason: "cannot delete it: \(ErrnoText.current)")
        }
    }

    /// Renames the unreadable file to `<name>.corrupt-<UTC time>`, keeping its bytes, and returns the error to report.
    func moveAside(reason: String) -> CacheError {
        let stamp = Self.timestamp(now())
        var target = URL(fileURLWithPath: "\(path).corrupt-\(stamp)")
        var suffix = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = URL(fileURLWithPath: "\(path).corrupt-\(stamp)-\(suffix)")
            suffix += 1
        }
        guard rename(path, target.path) == 0 else {
            return .fileSystem(
                path: path, reason: "it cannot be read (\(reason)) nor moved aside (\(ErrnoText.current))")
        }
        return .corrupt(path: path, movedTo: target.path, reason: reason)
    }

    /// The file's bytes; `nil` when it does not exist.
    func readData() throws(CacheError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: ErrnoText.current)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: ErrnoText.current)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    static func decode(_ data: Data) -> Contents {
        let header: FileHeader
        do {
            header = try decoder.decode(FileHeader.self, from: data)
        } catch {
            return .unreadable(reason: CacheFileDecoding.reason(error))
        }
        guard let version = header.schemaVersion else { return .unreadable(reason: "it has no schemaVersion") }
        if version > Format.schemaVersion { return .newer(version: version) }
        if version < Format.schemaVersion {
            do {
                if let value = try Format.decodeOlder(version: version, from: data, with: decoder) {
                    return .value(value)
                }
            } catch {
                return .unreadable(reason: CacheFileDecoding.reason(error))
            }
        }
        guard version == Format.schemaVersion else {
            return .unreadable(
                reason: "its schemaVersion \(version) is not the version this fitiq-tui reads (\(Format.schemaVersion))"
            )
        }
        do {
            return .value(try decoder.decode(Format.self, from: data).value)
        } catch {
            return .unreadable(reason: CacheFileDecoding.reason(error))
        }
    }

    private struct FileHeader: Decodable {
        var schemaVersion: Int?
    }

    /// The file's bytes for `value`.
    static func encode(_ value: Format.Value) throws -> Data {
        try (Format.isIndented ? CacheFileDecoding.encoder : CacheFileDecoding.compactEncoder).encode(
            Format(value: value))
    }

    /// Reads `data` as this format, whatever its schema version; `nil` when it cannot be used.
    static func value(_ data: Data) -> Format.Value? {
        if case .value(let value) = decode(data) { return value }
        return nil
    }

    private static var decoder: JSONDecoder { CacheFileDecoding.decoder }

    /// `20251122T144301.123Z`.
    private static func timestamp(_ date: Date) -> String {
        let day = CalendarDate(containing: date, in: .utc)
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let ofDay = Int((milliseconds % 86_400_000 + 86_400_000) % 86_400_000)
        let (hour, minute, second) = (ofDay / 3_600_000, ofDay / 60_000 % 60, ofDay / 1000 % 60)
        let time = [hour, minute, second].map { DecimalText.padded($0, width: 2) }.joined()
        return day.description.replacing("-", with: "") + "T" + time + "." + DecimalText.padded(ofDay % 1000, width: 3)
            + "Z"
    }
}
