import Foundation
import PackagePlugin

/// Gives a target `buildVersion`, the version of the checkout being built (`scripts/version.sh`).
///
/// A prebuild command runs before every build, so a new commit or tag changes the version without a
/// clean build; the script rewrites its output only when the text changes.
@main
struct BuildVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildVersion")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let script = context.package.directoryURL.appending(path: "scripts/version.sh")
        return [
            .prebuildCommand(
                displayName: "Reading the version of the checkout (scripts/version.sh)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "--swift", output.appending(path: "BuildVersion.swift").path],
                outputFilesDirectory: output)
        ]
    }
}
