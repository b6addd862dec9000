import Foundation
import PackagePlugin

/// Compiles the catalogs of `po/` into the target: `scripts/po/embed.sh` writes each `po/*.po` as a Swift
/// raw string literal, so the installed program, the release tarball and a development build all speak
/// every language with no file to find at run time. A catalog is parsed at the first use of its language.
///
/// A build command: it runs again when a catalog changes, and the script rewrites its output only when
/// the text changes.
@main
struct EmbedCatalogs: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCatalogs.swift")
        let package = context.package.directoryURL
        let script = package.appending(path: "scripts/po/embed.sh")
        let folder = package.appending(path: "po")
        let catalogs = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".po") }.sorted().map { folder.appending(path: $0) }
        return [
            .buildCommand(
                displayName: "Embedding the catalogs of po/ (scripts/po/embed.sh)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, output.path] + catalogs.map(\.path),
                inputFiles: [script] + catalogs,
                outputFiles: [output])
        ]
    }
}
