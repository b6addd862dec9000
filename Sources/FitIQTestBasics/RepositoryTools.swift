import Foundation

/// Scripts kept in this repository that the tests run (`scripts/`).
public enum RepositoryTools {
    /// The repository's root: the nearest folder above this source file that holds `Package.swift`.
    public static let root: URL? = {
        // Resolve symlinks first: a scratch package may link this folder from elsewhere.
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    /// The synthetic Apple Health export generator, `scripts/health/make-health-export.py`.
    public static let healthExportGenerator: URL? = {
        guard let script = root?.appendingPathComponent("scripts/health/make-health-export.py"),
            FileManager.default.fileExists(atPath: script.path)
        else { return nil }
        return script
    }()

    /// Runs the generator (`make-health-export.py`) with `arguments` under `python3`.
    public static func makeHealthExport(_ arguments: [String]) async throws -> CommandRunner.Result {
        guard let generator = healthExportGenerator else {
            return CommandRunner.Result(
                status: 127, stdout: "", stderr: "scripts/health/make-health-export.py not found")
        }
        let python = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/python3"), environment: [:])
        return try await python.run([generator.path] + arguments)
    }
}
