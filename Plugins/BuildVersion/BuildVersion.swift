import Foundation
import PackagePlugin

/// Gives a target `buildVersion`, the version of the checkout being built (`scripts/version.sh`: the
/// release number in `VERSION`, with the commits since it as a suffix between releases).
///
/// A build command, not a prebuild one: SwiftPM runs prebuild commands only when it plans the build
/// again, so a new commit kept the old version. This one runs whenever `VERSION`, git's record of where
/// HEAD points (`.git/logs/HEAD`) or its index changes, and the script rewrites its output only when the
/// text changes, so a new version compiles that one file and nothing else does.
@main
struct BuildVersion: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildVersion.swift")
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/version.sh")
        let release = package.appending(path: "VERSION")
        // A source tarball has no .git: the version is then VERSION's number alone.
        let git = ["HEAD", "logs/HEAD", "index"].map { gitFolder(of: package).appending(path: $0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Reading the version of the checkout (scripts/version.sh)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, "--swift", output.path],
                inputFiles: [script, release] + git,
                outputFiles: [output])
        ]
    }

    /// Where git keeps the checkout's HEAD, its log and its index: `.git`, or in a linked worktree (where
    /// `.git` is a file saying `gitdir: PATH`) that folder.
    func gitFolder(of package: URL) -> URL {
        let dotGit = package.appending(path: ".git")
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir:") else {
            return dotGit
        }
        let path = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appending(path: path)
    }
}
