import FitIQLocalization

/// A failure of the JSON cache on disk, described as the sentence the user sees.
public enum CacheError: Error, Equatable, CustomStringConvertible {
    /// Another process held the account lock for longer than the wait allowed.
    case locked(pid: Int32?, path: String)
    /// A cache file could not be decoded; it was moved aside to `movedTo`.
    case corrupt(path: String, movedTo: String, reason: String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file could not be written; the previous version of the file is intact.
    case writeFailed(path: String, reason: String)
    /// A folder or file could not be created, moved or removed.
    case fileSystem(path: String, reason: String)
    /// A file written by a newer fitiq-tui (a later schema version); it is left where it is, untouched.
    case newerVersion(path: String, version: Int, supported: Int)

    public var description: String {
        switch self {
        case .locked(let pid?, let path):
            tr(
                "The account cache is in use by another fitiq-tui process (pid {pid}), which holds the lock {path}; try again when it has finished.",
                ["pid": String(pid), "path": path])
        case .locked(nil, let path):
            tr(
                "The account cache is in use by another fitiq-tui process, which holds the lock {path}; try again when it has finished.",
                ["path": path])
        case .corrupt(let path, let movedTo, let reason):
            tr(
                "The cache file {path} could not be read ({reason}); it was moved aside to {movedTo} and fitiq-tui starts again without it.",
                ["path": path, "reason": reason, "movedTo": movedTo])
        case .readFailed(let path, let reason):
            tr("Could not read the cache file {path}: {reason}.", ["path": path, "reason": reason])
        case .writeFailed(let path, let reason):
            tr(
                "Could not save the cache file {path}: {reason}. The previous version is unchanged.",
                ["path": path, "reason": reason])
        case .fileSystem(let path, let reason):
            tr("Could not update {path}: {reason}.", ["path": path, "reason": reason])
        case .newerVersion(let path, let version, let supported):
            tr(
                "The cache file {path} was written by a newer fitiq-tui (schema version {version}; this one reads version {supported}). It is left as it is: install the newer fitiq-tui to use it.",
                ["path": path, "version": String(version), "supported": String(supported)])
        }
    }
}
