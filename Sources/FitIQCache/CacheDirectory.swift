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
