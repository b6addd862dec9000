import FitIQCore
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
/// ``TerminalScreen``), the clock and the date, the user's local time, the home folder and the health
/// export reader. Tests drive it with a fake terminal, the in-memory backend and a manual clock.
public final class EditorLoop: Sendable {
    /// What the loop needs from outside.
    public struct Dependencies: Sendable {
        /// Sleeps of the background work (the sync timer, the cache watch).
        public var clock: any Clock<Duration>
        /// The current instant: the title bar's time, the sync timer.
        public var now: @Sendable () -> Date
        /// The user's local time.
        public var timeZone: LocalZone
        /// `$HOME`, for a path typed as `~/…`.
        public var home: String?
        /// Opens the health export at a path (the `i` key); `nil` hides the key. A thrown error's
        /// description is shown as the import's failure.
        public var healthSource: (@Sendable (String) throws -> any HealthSource)?
        /// Edits text in the user's editor (`$VISUAL`/`$EDITOR`); it runs with the terminal given back.
        public var externalEditor: @Sendable (String) -> ExternalEditOutcome

        public init(
            clock: any Clock<Duration>, now: @escaping @Sendable () -> Date, timeZone: LocalZone, home: String?,
            healthSource: (@Sendable (String) throws -> any HealthSource)?,
            externalEditor: @escaping @Sendable (String) -> ExternalEditOutcome = { _ in
                .failed("No editor is available here.")
            }
        ) {
            self.clock = clock
            self.now = now
            self.timeZone = timeZone
            self.home = home
            self.healthSource = healthSource
            self.externalEditor = externalEditor
        }
    }

    /// How often the background work looks at the cache (and at a sync request).
    static let watchInterval = Duration.milliseconds(200)
    /// How often the account is synced without being asked.
    static let syncInterval: TimeInterval = 30
    /// How long one sync may take before it is reported as unfinished.
    static let syncDeadline: TimeInterval = 20

    private let accounts: Accounts
    private let dependencies: Dependencies
    private let account = Mutex<Account?>(nil)
    private let events = Mutex<[Event]>([])
    private let work = Mutex<[Task<Void, Never>]>([])
    private let syncRequested = Mutex(false)
    private let importTask = Mutex<Task<Void, Never>?>(nil)

    public init(accounts: Accounts, account: Account?, dependencies: Dependencies) {
        self.accounts = accounts
        self.dependencies = dependencies
        self.account.withLock { $0 = account }
    }

    /// The first state: the profile screen from the cache when signed in, else the sign-in screen.
    public func initialState(size: (width: Int, height: Int)) async -> AppState {
        var state = AppState(
            screen: .signIn, size: size, now: dependencies.now(), timeZone: dependencies.timeZone,
            server: accounts.server)
        state.canImportHealth = dependencies.healthSource != nil
        // The overview reads no history: the whole of it follows from the background work.
        if let account = account.withLock({ $0 }), let cached = try? await account.store.overview() {
            state.account = AccountSnapshot(email: account.email, server: account.key.server, overview: cached)
            state.screen = .profile
        }
        return state
    }

    /// Drives `screen` until the user quits; background work runs meanwhile.
    public func run(on screen: any TerminalScreen, state initial: AppState) {
        var state = initial
        var buffer = CellBuffer(width: screen.size.width, height: screen.size.height)
        let background = Task { await self.backgroundLoop() }
        if state.screen == .profile { requestSync() }
        var lastTick = dependencies.now()
        var dirty = true
        while !state.shouldQuit {
            // Render only after something happened: an idle editor costs next to nothing.
            if dirty {
                if buffer.width != state.size.width || buffer.height != state.size.height {
                    buffer = CellBuffer(width: state.size.width, height: state.size.height)
                }
                let cursor = render(state, into: &buffer)
                screen.draw(buffer, cursor: cursor)
                dirty = false
            }
            if let input = screen.nextInput(timeout: 50) {
                perform(update(&state, .input(input)), on: screen)
                dirty = true
            }
            for event in events.withLock({ queue in
                defer { queue = [] }
                return queue
            }) {
                perform(update(&state, event), on: screen)
                dirty = true
            }
            let now = dependencies.now()
            if now.timeIntervalSince(lastTick) >= 1 {
                lastTick = now
                perform(update(&state, .tick(now)), on: screen)
                dirty = true
            }
        }
        background.cancel()
    }

    /// Waits for local saves still running (a quit right after Ctrl-S must not lose them).
    public func finish() async {
        for task in work.withLock({ $0 }) { await task.value }
    }

    private func requestSync() {
        syncRequested.withLock { $0 = true }
    }

    private func post(_ event: Event) {
        events.withLock { $0.append(event) }
    }

    private func spawn(_ operation: @escaping @Sendable () async -> Void) {
        let task = Task { await operation() }
        work.withLock { $0.append(task) }
    }

    private func perform(_ effects: [Effect], on screen: any TerminalScreen) {
        for effect in effects { perform(effect, on: screen) }
    }

    /// Runs `effect`: the terminal's own effects here, on the thread that owns it; the use cases as tasks.
    private func perform(_ effect: Effect, on screen: any TerminalScreen) {
        switch effect {
        case .repaint:
            screen.invalidate()
        case .suspend:
            screen.suspend()
            screen.invalidate()
        case .editExternally(let field, let text):
            var outcome = ExternalEditOutcome.failed("The editor did not run.")
            screen.runOutside { outcome = dependencies.externalEditor(text) }
            post(.externalEdit(field, outcome))
        default:
            perform(effect)
        }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .signIn(let email, let password):
            spawn { await self.signIn { try await self.accounts.signIn(email: email, password: password) } }
        case .register(let email, let password, let name, let dateOfBirth):
            spawn {
                await self.signIn {
                    try await self.accounts.register(
                        email: email, password: password, name: name, dateOfBirth: dateOfBirth)
                }
            }
        case .saveMetadata(let name, let bio, let unitSystem, let languageCode):
            spawn {
                await self.save(.metadata) { account in
                    try await account.updateMetadata(
                        name: name, bio: bio, unitSystem: unitSystem, languageCode: languageCode)
                }
            }
        case .saveHeight(let centimetres):
            spawn { await self.save(.physical) { account in try await account.updateHeight(centimetres: centimetres) } }
        case .importHealth(let path):
            let task = Task { await self.importHealth(path) }
            importTask.withLock { $0 = task }
            work.withLock { $0.append(task) }
        case .cancelImport:
            importTask.withLock { $0?.cancel() }
        case .syncNow:
            requestSync()
        case .retryRejected:
            spawn { await self.changeOutbox { try await $0.retryRejected() } }
        case .resolveConflict(let field, let keepLocal):
            spawn { await self.changeOutbox { try await $0.resolveConflict(field, keepLocal: keepLocal) } }
        case .discardRejected:
            spawn { await self.changeOutbox { try await $0.discardRejected() } }
        case .undo:
            spawn {
                await self.report { account in
                    guard let step = try await account.undo() else { return "Nothing to undo." }
                    return "Undid \(step.description)."
                }
            }
        case .deleteHeight(let id):
            spawn {
                await self.report { account in
                    let removed = try await account.deleteHeight(id: id)
                    let units = try await account.cached().profile?.preferredUnitSystem ?? .metric
                    return "Removed \(Height.format(removed.quantity, unitSystem: units)); u undoes it."
                }
            }
        case .correctHeight(let id, let centimetres):
            spawn {
                await self.report { account in
                    let (before, after) = try await account.correctHeight(id: id, centimetres: centimetres)
                    let units = try await account.cached().profile?.preferredUnitSystem ?? .metric
                    return "Corrected \(Height.format(before.quantity, unitSystem: units)) to "
                        + "\(Height.format(after.quantity, unitSystem: units)); u undoes it."
                }
            }
        case .quit, .repaint, .suspend, .editExternally:
            break
        }
    }

    private func signIn(_ operation: () async throws -> Accounts.SignedIn) async {
        do {
            let signedIn = try await operation()
            account.withLock { $0 = signedIn.account }
            await publish(signedIn.account)
            post(.connection(signedIn.profileError.map { .offline(String(describing: $0)) } ?? .online))
            requestSync()
        } catch {
            post(.signInFailed(String(describing: error)))
        }
    }

    private func save(_ form: Form, _ change: @Sendable (Account) async throws -> Bool) async {
        guard let account = account.withLock({ $0 }) else { return }
        do {
            guard try await change(account) else {
                post(.nothingToSave(form))
                return
            }
            post(.saved(form, error: nil))
            await publish(account)
            requestSync()
        } catch {
            post(.saved(form, error: String(describing: error)))
        }
    }

    /// Imports the export at `path` (typed by the user), reporting progress as events.
    private func importHealth(_ path: String) async {
        guard let account = account.withLock({ $0 }), let open = dependencies.healthSource else { return }
        let source: any HealthSource
        do {
            source = try open(UserPath.expand(path, home: dependencies.home))
        } catch {
            post(.healthImport(.failed(String(describing: error))))
            return
        }
        let lastShown = Mutex(-1)
        do {
            let result = try await account.importHealth(from: source) { progress in
                guard let total = progress.totalBytes, total > 0 else { return }
                let percent = Int(progress.bytesRead * 100 / total)
                // One event per percent at most: the screen is not flooded by a fast reader.
                let changed = lastShown.withLock { shown in
                    defer { shown = max(shown, percent) }
                    return percent > shown
                }
                if changed { self.post(.healthImport(.reading(Double(percent) / 100))) }
            }
            let profile = try? await account.cached().profile
            post(
                .healthImport(
                    .finished(
                        result.summary(
                            unitSystem: profile?.metadata.preferredUnitSystem ?? .metric,
                            profileDateOfBirth: profile?.physical.dateOfBirth))))
            await publish(account)
            requestSync()
        } catch is CancellationError {
            post(.healthImport(.failed("Import stopped; nothing was imported.")))
        } catch {
            post(.healthImport(.failed(String(describing: error))))
        }
    }

    /// Runs a change whose result the user reads as a sentence; then shows the account and syncs.
    private func report(_ change: @Sendable (Account) async throws -> String) async {
        guard let account = account.withLock({ $0 }) else { return }
        do {
            post(.notice(try await change(account), isError: false))
        } catch {
            post(.notice(String(describing: error), isError: true))
        }
        await publish(account)
        requestSync()
    }

    private func changeOutbox(_ change: @Sendable (Account) async throws -> Void) async {
        guard let account = account.withLock({ $0 }) else { return }
        try? await change(account)
        await publish(account)
        requestSync()
    }

    private func publish(_ account: Account) async {
        guard let state = try? await account.cached() else { return }
        post(.accountChanged(AccountSnapshot(email: account.email, server: account.key.server, state: state)))
    }

    /// Syncs when asked and every 30 s; shows what other processes write to the cache as soon as the
    /// store's revision moves.
    private func backgroundLoop() async {
        var lastRevision: StoreRevision?
        var lastSync = Date.distantPast
        while !Task.isCancelled {
            guard let account = account.withLock({ $0 }) else {
                try? await dependencies.clock.sleep(for: Self.watchInterval)
                continue
            }
            let asked = syncRequested.withLock { requested in
                defer { requested = false }
                return requested
            }
            let now = dependencies.now()
            if asked || now.timeIntervalSince(lastSync) > Self.syncInterval {
                lastSync = now
                await sync(account)
            }
            if let revision = await account.store.revision(), revision != lastRevision {
                lastRevision = revision
                await publish(account)
            }
            try? await dependencies.clock.sleep(for: Self.watchInterval)
        }
    }

    /// One sync, reported as connection events: syncing, then online, offline (with why) or signed out.
    private func sync(_ account: Account) async {
        post(.connection(.syncing))
        do {
            let report = try await account.syncNow(
                until: dependencies.now().addingTimeInterval(Self.syncDeadline))
            if report.pending > 0, let reason = report.lastError {
                post(.connection(.offline(reason)))
            } else {
                post(.connection(.online))
            }
        } catch let error as SessionError {
            post(.connection(.signedOut(error.description)))
        } catch {
            post(.connection(.offline(String(describing: error))))
        }
    }
}
