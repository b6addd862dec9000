import Foundation
import PackagePlugin

/// Gives a target `buildVersion`, the version of the checkout being built (`scripts/version.sh`).
///
/// A build command, not a prebuild one: SwiftPM runs prebuild commands only when it plans the build
/// again, so a new commit kept the old version. This one runs whenever git's record of where HEAD
/// points (`.git/logs/HEAD`) or its index changes, and the script rewrites its output only when the
/// text changes, so a new version compiles that one file and nothing else does.
@main
struct BuildVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildVersion.swift")
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/version.sh")
        // A source tarball has no .git: the script then says so, and only its own change runs it again.
        let git = ["HEAD", "logs/HEAD", "index"].map { package.appending(path: ".git/\($0)") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Reading the version of the checkout (scripts/version.sh)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "--swift", output.path],
                inputFiles: [script] + git,
                outputFiles: [output])
        ]
    }
}
