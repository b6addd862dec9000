import CFileSync
import FitIQCore

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
        try Self.write([(self, data)])
    }

    /// Writes each file's new contents as ``write(_:)`` writes one, all in one folder, which is looked
    /// through for stale temporary files once and flushed once for them all (a fold of the history
    /// writes a segment a month: a dozen for a year, hundreds for a first sync of years). Each file is
    /// replaced whole or not at all; after a failure, the files not yet replaced keep their contents.
    ///
    /// The temporary files are written a group at a time, each group's writeback started for every
    /// file before the first is flushed: their flushes overlap instead of waiting for one another.
    static func write(_ files: [(file: AtomicFile, data: Data)]) throws(CacheError) {
        guard let first = files.first?.file else { return }
        let folder = first.url.deletingLastPathComponent()
        precondition(files.allSatisfy { $0.file.url.deletingLastPathComponent() == folder }, "one folder")
        try CacheDirectory.ensure(folder)
        removeStaleTemporaryFiles(in: folder, prefixes: Set(files.map(\.file.temporaryPrefix)))
        var temporaries: [String] = []
        var renamed = 0
        do throws(CacheError) {
            for group in stride(from: 0, to: files.count, by: Self.filesOpenAtOnce) {
                var open: [(file: AtomicFile, descriptor: Int32)] = []
                defer { for (_, descriptor) in open { close(descriptor) } }
                for (file, data) in files[group..<min(group + Self.filesOpenAtOnce, files.count)] {
                    let temporary = folder.appendingPathComponent(
                        "\(file.temporaryPrefix)\(getpid())-\(UInt64.random(in: 0...UInt64.max))", isDirectory: false
                    ).path
                    temporaries.append(temporary)
                    open.append((file, try file.writeTemporary(data, to: temporary)))
                }
                for (file, descriptor) in open {
                    guard file.system.fsync(descriptor) == 0 else {
                        throw CacheError.writeFailed(path: file.url.path, reason: ErrnoText.current)
                    }
                }
            }
            for ((file, _), temporary) in zip(files, temporaries) {
                if file.system.rename(temporary, file.url.path) != 0 {
                    throw CacheError.writeFailed(
                        path: file.url.path, reason: "cannot rename the new version into place: \(ErrnoText.current)")
                }
                renamed += 1
            }
        } catch {
            for temporary in temporaries.dropFirst(renamed) { unlink(temporary) }
            if renamed > 0 { first.syncFolder(folder) }
            throw error
        }
        first.syncFolder(folder)
    }

    /// How many temporary files a batch keeps open before flushing them (well under the usual limit of
    /// 1,024 descriptors a process).
    static let filesOpenAtOnce = 64

    /// Writes `data` to a new file at `path` and starts its writeback; returns the open descriptor,
    /// which the caller flushes and closes.
    private func writeTemporary(_ data: Data, to path: String) throws(CacheError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .writeFailed(path: url.path, reason: ErrnoText.current) }
        // `open` honours the umask; set the mode explicitly so it is exactly `permissions`.
        guard fchmod(fd, permissions) == 0 else {
            close(fd)
            throw .writeFailed(path: url.path, reason: ErrnoText.current)
        }
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
        if let failure {
            close(fd)
            throw .writeFailed(path: url.path, reason: ErrnoText.describe(failure))
        }
        // Only a start: the flush that counts is the `fsync` after it (an error shows there).
        _ = sync_file_range(fd, 0, 0, UInt32(FITIQ_SYNC_FILE_RANGE_WRITE))
        return fd
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
        Self.removeStaleTemporaryFiles(in: url.deletingLastPathComponent(), prefixes: [temporaryPrefix])
    }

    /// Removes the temporary files in `folder` with one of `prefixes` whose writer is gone.
    static func removeStaleTemporaryFiles(in folder: URL, prefixes: Set<String>) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            guard name.hasPrefix("."), let end = name.firstRange(of: ".tmp-") else { continue }
            let prefix = String(name[..<end.upperBound])
            guard prefixes.contains(prefix) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder.appendingPathComponent(name, isDirectory: false).path)
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
