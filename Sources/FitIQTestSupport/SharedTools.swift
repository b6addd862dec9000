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

    /// Runs the generator (`make-health-export.py`) with `arguments` under `python3`.
    public static func makeHealthExport(_ arguments: [String]) async throws -> CommandRunner.Result {
        guard let generator = healthExportGenerator else {
            return CommandRunner.Result(status: 127, stdout: "", stderr: "make-health-export.py not found")
        }
        let python = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/python3"), environment: [:])
        return try await python.run([generator.path] + arguments)
    }
}
