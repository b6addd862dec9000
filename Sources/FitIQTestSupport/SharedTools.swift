import Foundation

/// Scripts of the shared folder next to the repository (`../shared/tools/`).
public enum SharedTools {
    /// The synthetic Apple Health export generator: `$FITIQ_HEALTH_GENERATOR`, or
    /// `shared/tools/make-health-export.py` in a folder above this file.
    public static let healthExportGenerator: URL? = {
        if let path = ProcessInfo.processInfo.environment["FITIQ_HEALTH_GENERATOR"] {
            return URL(fileURLWithPath: path)
        }
        // Resolve symlinks first: a scratch package may link this folder from elsewhere.
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/tools/make-health-export.py")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()
}
