import FitIQCore
import FitIQLaunch
import FitIQTUI
import Foundation

// `fitiq-tui`: the editor when run alone. With arguments this process becomes the command line,
// `fitiq-tui-cli` next to it, so `fitiq-tui login …` and `fitiq-tui --server URL` behave as one program.
// The editor links no HTTP stack, for a short start (`make bench-startup`); it signs in and syncs by
// running `fitiq-tui-cli`.

let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
let commandLine = folder.appendingPathComponent("fitiq-tui-cli")

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("Error: \(TextSanitizer.sanitize(message))\n".utf8))
    exit(status)
}

guard FileManager.default.isExecutableFile(atPath: commandLine.path) else {
    fail("\(commandLine.path) is missing; build it with `swift build` (or `make release`).", status: 1)
}

if CommandLine.arguments.count > 1 {
    let arguments = [commandLine.path] + CommandLine.arguments.dropFirst()
    var pointers = arguments.map { strdup($0) } + [nil]
    execv(commandLine.path, &pointers)
    fail("cannot run \(commandLine.path): \(String(cString: strerror(errno)))", status: 1)
}

do {
    let setup = try await LocalSetup.resolve(.live())
    let (accounts, account) = try setup.accounts(backend: LocalOnlyBackend().backend)
    let environment = ProcessInfo.processInfo.environment
    let network = CommandLineNetwork(executable: commandLine, accounts: accounts, environment: environment)
    try await TUILauncher.run(accounts: accounts, account: account, network: network, environment: environment)
} catch let error as ServerAddress.Problem {
    fail(error.description, status: 64)
} catch {
    fail(String(describing: error), status: 1)
}
