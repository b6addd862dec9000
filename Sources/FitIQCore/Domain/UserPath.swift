#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A file path as a person types it.
public enum UserPath {
    /// Expands a leading `~` (alone or before `/`) to `home`, the user's `$HOME`; other paths, and
    /// every path when `home` is unknown, are kept as typed. (The password database is never read: on
    /// a shared or sudo'd session its home is not the one the user means.)
    public static func expand(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else {
            return path
        }
        return home + path.dropFirst()
    }
}
