import FitIQCache
import FitIQCore
import FitIQEditor
import FitIQHealth
import FitIQTUI
import NIOPosix
import NcursesTerminal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the editor for `accounts` (the current account's profile, or the sign-in screen), in this
/// process: sign-in, sync and health imports run here as tasks whose results reach the screen as events.
enum TUILauncher {
    /// Runs the editor until the user quits.
    static func run(accounts: Accounts, account: Account?, environment: [String: String]) async throws {
        let loop = EditorLoop(
            accounts: accounts, account: account,
            dependencies: EditorLoop.Dependencies(
                clock: ContinuousClock(), now: { Date() }, timeZone: accounts.environment.timeZone,
                home: environment["HOME"], healthSource: openHealthExport,
                externalEditor: { ExternalEditor(environment: environment).edit($0) },
                cacheWatch: accountFolderWatch, graphics: ChartGraphics.choose(environment: environment)))
        let initial = await loop.initialState(size: (0, 0))
        StartupTrace.mark("account read from the cache")
        // ncurses belongs to one thread for its whole life (docs/ncurses.md "One thread"): a pool of one thread of its
        // own, so the loop that waits for keys never holds a thread of the cooperative pool.
        let terminalThread = NIOThreadPool(numberOfThreads: 1)
        terminalThread.start()
        let failure: (any Error)?
        do {
            try await terminalThread.runIfActive {
                let screen = try NcursesScreen(environment: environment)
                StartupTrace.mark("terminal opened")
                var state = initial
                state.size = screen.size
                loop.run(on: StartupTrace.isEnabled ? StartupTrace.Screen(screen) : screen, state: state)
                // The terminal is restored before the process may end, not after.
                screen.restore()
            }
            failure = nil
        } catch {
            failure = error
        }
        try? await terminalThread.shutdownGracefully()
        await loop.finish()
        if let failure { throw failure }
    }

    /// Writes to an account's data folder (inotify where available): what other processes save shows in
    /// the editor at once.
    static let accountFolderWatch = FolderCacheWatch { account in
        (account.store as? JSONFileProfileStore)?.folder.path
    }

    /// The health export at `path` (already expanded), or why it cannot be imported.
    @Sendable static func openHealthExport(_ path: String) throws -> any HealthSource {
        var info = stat()
        guard stat(path, &info) == 0 else { throw PathProblem(description: "Path: no file at \(path).") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PathProblem(description: "Path: \(path) is a folder; give the export.zip or export.xml in it.")
        }
        guard access(path, R_OK) == 0 else {
            throw PathProblem(description: "Path: \(path) cannot be read (permission denied).")
        }
        return AppleHealthExport(url: URL(fileURLWithPath: path))
    }

    /// Why a typed path cannot be imported; the description is shown under the path.
    struct PathProblem: Error, CustomStringConvertible {
        let description: String
    }
}
