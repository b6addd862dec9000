import FitIQCore
import FitIQLocalization
import FitIQTUI
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs the editor: one thread owns the terminal and the state; use cases run as tasks whose results
/// come back as events, so typing never waits for the network.
///
/// Everything outside comes in through its initialiser: the use cases, the terminal (a
/// ``TerminalScreen``), the clock and the date, the user's local time, the home folder, the health
/// export reader and the cache watch. Tests drive it with a fake terminal, the in-memory backend and a
/// manual clock.
///
/// Its parts, each tested alone: the terminal loop (keys, resizes, signals and results in, frames out),
/// the effect runner (use cases as tasks), the background sync (when asked, and on a schedule) and the
/// cache watcher (other processes' writes). None of them polls: each sleeps until it has work.
public final class EditorLoop: Sendable {
    /// What the loop needs from outside.
    public struct Dependencies: Sendable {
        /// The one source of time: sleeps of the background work (the periodic sync), and the date
        /// (the title bar's time and when it next ticks, a sync's deadline).
        public var clock: any DatedClock
        /// The current date, from ``clock``.
        public var now: @Sendable () -> Date {
            let clock = self.clock
            return { clock.date() }
        }
        /// The user's local time.
        public var timeZone: LocalZone
        /// `$HOME`, for a path typed as `~/…`.
        public var home: String?
        /// Opens the health export at a path (the `i` key); `nil` hides the key. A thrown error's
        /// description is shown as the import's failure.
        public var healthSource: (@Sendable (String) throws -> any HealthSource)?
        /// Reads other apps' exports at a path (the `i` key with anything but an Apple Health export);
        /// `nil`: such files are refused.
        public var exportFiles: (any ExportFiles)?
        /// Edits text in the user's editor (`$VISUAL`/`$EDITOR`); it runs with the terminal given back.
        public var externalEditor: @Sendable (String) -> ExternalEditOutcome
        /// Reports writes to the account's cache (another process's); `nil`: none, and other processes'
        /// changes show at the next sync.
        public var cacheWatch: (any CacheWatch)?
        /// The symbols charts are drawn with.
        public var graphics: ChartGraphics
        /// The language settings and catalogs (English only by default).
        public var language: EditorLanguage
        /// Gives memory freed since the last call back to the system; called after each sync round, when
        /// the editor has just let go of what the round read (it stays open for hours).
        public var releaseMemory: @Sendable () -> Void = {}

        public init(
            clock: any DatedClock, timeZone: LocalZone, home: String?,
            healthSource: (@Sendable (String) throws -> any HealthSource)?,
            externalEditor: @escaping @Sendable (String) -> ExternalEditOutcome = { _ in
                .failed(tr("No editor is available here."))
            },
            exportFiles: (any ExportFiles)? = nil, cacheWatch: (any CacheWatch)? = nil,
            graphics: ChartGraphics = .braille, language: EditorLanguage = EditorLanguage()
        ) {
            self.language = language
            self.exportFiles = exportFiles
            self.graphics = graphics
            self.clock = clock
            self.timeZone = timeZone
            self.home = home
            self.healthSource = healthSource
            self.externalEditor = externalEditor
            self.cacheWatch = cacheWatch
        }
    }

    private let accounts: Accounts
    private let dependencies: Dependencies
    private let slot: AccountSlot
    private let inbox: EventInbox
    private let sync: BackgroundSync
    private let watcher: CacheWatcher
    private let effects: EffectRunner
    /// The sync and the cache watch, once started: cancelled when the loop ends, awaited by ``finish()``.
    private let background = Mutex<Task<Void, Never>?>(nil)

    public init(accounts: Accounts, account: Account?, dependencies: Dependencies) {
        self.accounts = accounts
        self.dependencies = dependencies
        let slot = AccountSlot(account)
        let inbox = EventInbox()
        let watcher = CacheWatcher(slot: slot, inbox: inbox, watch: dependencies.cacheWatch)
        let sync = BackgroundSync(
            slot: slot, inbox: inbox, clock: dependencies.clock,
            afterRound: { [releaseMemory = dependencies.releaseMemory] in
                await watcher.check($0)
                releaseMemory()
            })
        self.slot = slot
        self.inbox = inbox
        self.watcher = watcher
        self.sync = sync
        self.effects = EffectRunner(
            accounts: accounts, slot: slot, inbox: inbox, requestSync: { sync.requestSync() },
            requestPush: { sync.requestPush() },
            healthSource: dependencies.healthSource, exportFiles: dependencies.exportFiles,
            home: dependencies.home)
    }

    /// The first state: the profile screen from the cache when signed in, else the sign-in screen.
    public func initialState(size: (width: Int, height: Int)) async -> AppState {
        var state = AppState(
            screen: .signIn, size: size, now: dependencies.now(), timeZone: dependencies.timeZone,
            server: accounts.server)
        state.canImportHealth = dependencies.healthSource != nil
        state.graphics = dependencies.graphics
        state.language = dependencies.language
        // The overview reads no history: the whole of it follows from the background work.
        if let account = slot.account, let cached = try? await account.view() {
            state.account = cached
            state.screen = .profile
        }
        return state
    }

    /// Drives `screen` until the user quits; the sync and the cache watch run meanwhile.
    public func run(on screen: any TerminalScreen, state initial: AppState) {
        // Started once the first frame is drawn: on two cores, a sync started earlier delays it.
        let startBackground = { [self, sync, watcher, effects] in
            background.withLock { started in
                started = Task {
                    await withDiscardingTaskGroup { group in
                        group.addTask { await sync.run() }
                        group.addTask { await watcher.run() }
                        // What `:account` completes: read after the first frame, not before it.
                        group.addTask { await effects.listAccounts() }
                    }
                }
            }
        }
        let loop = TerminalLoop(inbox: inbox, now: dependencies.now, externalEditor: dependencies.externalEditor)
        loop.run(on: screen, state: initial, drawn: startBackground) { effects.perform($0) }
        background.withLock { $0?.cancel() }
    }

    /// Waits for local saves still running (a quit right after Ctrl-S must not lose them), then for the
    /// background sync to end: a cache write it had under way finishes, and none comes after.
    public func finish() async {
        await effects.finish()
        await background.withLock { $0 }?.value
    }
}
