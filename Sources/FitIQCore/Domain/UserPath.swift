import Foundation

/// A file path as a person types it.
public enum UserPath {
    /// Expands a leading `~` (alone or before `/`) to `home`, the user's `$HOME`; other paths are kept.
    /// (Foundation's `expandingTildeInPath` reads the password database instead, which on a shared or
    /// sudo'd session is not the home the user means.)
    public static func expand(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else {
            return path.hasPrefix("~") ? (path as NSString).expandingTildeInPath : path
        }
        return home + path.dropFirst()
    }
}
