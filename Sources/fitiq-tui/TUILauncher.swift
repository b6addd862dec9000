import FitIQCache
import FitIQCatalogs
import FitIQCore
import FitIQEditor
import FitIQImport
import FitIQLocalization
import FitIQTUI
import FitIQWords
import NcursesTerminal

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import CMalloc
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens the editor for `accounts` (the current account's profile, or the sign-in screen), in this
/// process: sign-in, sync and health imports run here as tasks whose results reach the screen as events.
enum TUILauncher {
    /// The editor, or plain mode: when `plain` asks for it, or when no terminal type works (`TERM` and
    /// `FITIQ_TERM` unset, empty or `dumb`, or unknown with no fallback installed). An unknown type in
    /// the xterm family opens as `xterm-256color` or `xterm`, with a notice (``TerminalType``).
    static func open(
        accounts: Accounts, account: Account?, plain: Bool, mouse: Bool = true, environment: [String: String]
    ) async throws {
        let terminal = plain ? nil : TerminalType.resolve(environment: environment, isKnown: TerminalType.terminfoHas)
        guard let terminal, let chosen = terminal.chosen else {
            if let reason = await inProfileLanguage(account, environment, { terminal?.plainModeReason }) {
                printError(TextSanitizer.sanitize(reason))
            }
            var session = PlainMode(
                accounts: accounts, account: account,
                language: EditorLanguage(settings: LanguageSettings(environment: environment), catalogs: .embedded))
            await session.run()
            return
        }
        var environment = environment
        environment["TERM"] = chosen  // also what an external editor started from here is told
        let notice = await inProfileLanguage(account, environment, { terminal.notice }).map(TextSanitizer.sanitize)
        try await run(accounts: accounts, account: account, environment: environment, mouse: mouse, notice: notice)
        // Said again once the screen is gone, where it can be copied.
        if let notice { printError(notice) }
    }

    /// `words` in the profile's language, as the editor will speak: the cache is read for it only when
    /// there is something to say (nothing else reads it before the editor does).
    private static func inProfileLanguage(
        _ account: Account?, _ environment: [String: String], _ words: () -> String?
    ) async -> String? {
        guard words() != nil else { return nil }
        let language = try? await account?.view().profile?.languageCode
        let settings = LanguageSettings(environment: environment)
        return speaking(Catalogs.embedded.localizer(settings, profile: language ?? nil), words)
    }

    /// Runs the editor until the user quits, with `notice` in the footer at first.
    static func run(
        accounts: Accounts, account: Account?, environment: [String: String], mouse: Bool = true,
        notice: String? = nil
    ) async throws {
        var dependencies = EditorLoop.Dependencies(
            clock: accounts.environment.clock, timeZone: accounts.environment.timeZone,
            home: environment["HOME"], healthSource: openHealthExport,
            externalEditor: { ExternalEditor(environment: environment).edit($0) },
            exportFiles: ExportWalk(),
            cacheWatch: accountFolderWatch, graphics: ChartGraphics.choose(environment: environment),
            language: EditorLanguage(settings: LanguageSettings(environment: environment), catalogs: .embedded))
        #if os(Linux)
            // glibc keeps freed pages inside its heaps (between live blocks, and in each thread's arena)
            // until asked: over an afternoon of syncs that was megabytes the editor no longer used.
            dependencies.releaseMemory = { _ = malloc_trim(0) }
        #endif
        let loop = EditorLoop(accounts: accounts, account: account, dependencies: dependencies)
        try await loop.run(
            notice: notice,
            opening: {
                let screen = try NcursesScreen(environment: environment, mouse: mouse)
                StartupTrace.mark("terminal opened (on its own thread, beside the cache read)")
                return (StartupTrace.isEnabled ? StartupTrace.Screen(screen) : screen, { screen.restore() })
            },
            read: { StartupTrace.mark("account read from the cache") })
    }

    /// Writes to an account's data folder (inotify where available): what other processes save shows in
    /// the editor at once.
    static let accountFolderWatch = FolderCacheWatch { $0.cacheFolder?.path }

    /// The health export at `path` (already expanded), or why it cannot be imported.
    @Sendable static func openHealthExport(_ path: String) throws -> any HealthSource {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw PathProblem(description: tr("Path: no file at {path}.", ["path": path]))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw PathProblem(
                description: tr("Path: {path} is a folder; give the export.zip or export.xml in it.", ["path": path]))
        }
        guard access(path, R_OK) == 0 else {
            throw PathProblem(description: tr("Path: {path} cannot be read (permission denied).", ["path": path]))
        }
        return AppleHealthExport(url: URL(fileURLWithPath: path))
    }

    /// Why a typed path cannot be imported; the description is shown under the path.
    struct PathProblem: Error, CustomStringConvertible {
        let description: String
    }
}
