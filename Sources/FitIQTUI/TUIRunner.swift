import FitIQCore
import Foundation
import Synchronization

/// Runs the terminal UI: one thread owns the terminal and the state; use cases run as tasks whose
/// results come back as events, so typing never waits for the network.
public final class TUIRunner: Sendable {
    private let accounts: Accounts
    private let account = Mutex<Account?>(nil)
    private let events = Mutex<[Event]>([])
    private let work = Mutex<[Task<Void, Never>]>([])
    private let syncRequested = Mutex(false)
    private let network: any EditorNetwork
    private let healthSource: (@Sendable (URL) -> any HealthSource)?
    private let importTask = Mutex<Task<Void, Never>?>(nil)

    /// - Parameters:
    ///   - network: signs in and syncs (``InProcessNetwork`` by default).
    ///   - healthSource: opens the health export at a path (the `i` key); `nil` hides the key.
    public init(
        accounts: Accounts, account: Account?, network: (any EditorNetwork)? = nil,
        healthSource: (@Sendable (URL) -> any HealthSource)? = nil
    ) {
        self.accounts = accounts
        self.network = network ?? InProcessNetwork(accounts: accounts)
        self.healthSource = healthSource
        self.account.withLock { $0 = account }
    }

    /// The first state: the profile screen from the cache when signed in, else the sign-in screen.
    public func initialState(size: (width: Int, height: Int)) async -> AppState {
        let environment = accounts.environment
        var state = AppState(
            screen: .signIn, size: size, now: environment.now(), timeZone: environment.timeZone,
            server: accounts.server)
        state.canImportHealth = healthSource != nil
        if let account = account.withLock({ $0 }), let cached = try? await account.cached() {
            state.account = AccountSnapshot(email: account.email, server: account.key.server, state: cached)
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
        var lastTick = Date()
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
                perform(update(&state, .input(input)))
                dirty = true
            }
            for event in events.withLock({ queue in
                defer { queue = [] }; return queue
            }) {
                perform(update(&state, event))
                dirty = true
            }
            if Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                perform(update(&state, .tick(lastTick)))
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

    private func perform(_ effects: [Effect]) {
        for effect in effects { perform(effect) }
    }

    private func perform(_ effect: Effect) {
        switch effect {
        case .signIn(let email, let password):
            spawn { await self.signIn { try await self.network.signIn(email: email, password: password) } }
        case .register(let email, let password, let name, let dateOfBirth):
            spawn {
                await self.signIn {
                    try await self.network.register(
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
        case .saveHeight(let text):
            spawn { await self.save(.physical) { account in try await account.updatePhysical(heightText: text) } }
        case .importHealth(let path):
            let task = Task { await self.importHealth(path) }
            importTask.withLock { $0 = task }
            work.withLock { $0.append(task) }
        case .cancelImport:
            importTask.withLock { $0?.cancel() }
        case .syncNow:
            requestSync()
        case .retryRejected:
            spawn {
                await self.changeOutbox {
                    try await $0.store.update { state in Self.items(state, rejected: true).forEach { state.retry($0) } }
                }
            }
        case .discardRejected:
            spawn {
                await self.changeOutbox {
                    try await $0.store.update { state in Self.items(state, rejected: true).forEach { state.discard($0) }
                    }
                }
            }
        case .quit:
            break
        }
    }

    private static func items(_ state: AccountState, rejected: Bool) -> [OutboxItemID] {
        state.pendingChanges().filter { ($0.rejection != nil) == rejected }.map(\.item)
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
            _ = try await change(account)
            post(.saved(form, error: nil))
            await publish(account)
            requestSync()
        } catch {
            post(.saved(form, error: String(describing: error)))
        }
    }

    /// Imports the export at `path` (typed by the user), reporting progress as events.
    private func importHealth(_ path: String) async {
        guard let account = account.withLock({ $0 }), let healthSource else { return }
        let expanded = UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"])
        if let problem = Self.fileProblem(expanded) {
            post(.healthImport(.failed(problem)))
            return
        }
        let lastShown = Mutex(-1)
        do {
            let result = try await account.importHealth(from: healthSource(URL(fileURLWithPath: expanded))) {
                progress in
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

    /// Why the file at `path` cannot be imported, or `nil` when it can be read.
    static func fileProblem(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "Path: no file at \(path)."
        }
        if isFolder.boolValue { return "Path: \(path) is a folder; give the export.zip or export.xml in it." }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "Path: \(path) cannot be read (permission denied)."
        }
        return nil
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

    /// Syncs when asked and every 30 s, and notices cache changes made by other processes.
    private func backgroundLoop() async {
        var lastSeen: AccountState?
        var lastSync = Date.distantPast
        var lastLook = Date.distantPast
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(200))
            guard let account = account.withLock({ $0 }) else { continue }
            let asked = syncRequested.withLock { requested in
                defer { requested = false }; return requested
            }
            if asked || Date().timeIntervalSince(lastSync) > 30 {
                lastSync = Date()
                post(.connection(.syncing))
                do {
                    try await network.sync(account, until: Date().addingTimeInterval(20))
                    post(.connection(.online))
                } catch let error as SessionError {
                    post(.connection(.signedOut(error.description)))
                } catch {
                    post(.connection(.offline(String(describing: error))))
                }
            } else if Date().timeIntervalSince(lastLook) < 2 {
                continue
            }
            lastLook = Date()
            if let state = try? await account.cached(), state != lastSeen {
                lastSeen = state
                post(.accountChanged(AccountSnapshot(email: account.email, server: account.key.server, state: state)))
            }
        }
    }
}
