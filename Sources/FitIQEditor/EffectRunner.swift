import FitIQCore
import FitIQLocalization
import FitIQTUI
import FitIQWords
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Runs the use cases the UI asks for as tasks, each reporting back as events in the inbox, so typing
/// never waits for them; a change that the server should see asks for a sync as soon as it is saved.
final class EffectRunner: Sendable {
    private let accounts: Accounts
    private let slot: AccountSlot
    private let inbox: EventInbox
    private let requestSync: @Sendable () -> Void
    private let requestPush: @Sendable () -> Void
    private let healthSource: (@Sendable (String) throws -> any HealthSource)?
    private let exportFiles: (any ExportFiles)?
    private let home: String?
    /// The effects still running, by number. Each removes itself as it ends, so an editor left open for
    /// an afternoon holds only the work in flight, not every task it ever ran.
    private let work = Mutex<(next: Int, running: [Int: Task<Void, Never>])>((0, [:]))
    private let importTask = Mutex<Task<Void, Never>?>(nil)
    /// An export read and shown, waiting for Enter (``Effect/confirmImport``), with the account it was
    /// read for: a switch to another account in between imports nothing.
    private let pendingImport = Mutex<(PendingImport, for: AccountKey)?>(nil)
    /// Reads whose results may cross (a sync's reload of the chart and a goal just set): each is stamped
    /// before it reads, and the next stamp to give and the last one posted, by kind.
    private let reads = Mutex<(next: Int, posted: [String: Int])>((0, [:]))

    /// Works on `slot`'s account (signing in sets it), posting to `inbox`; `requestSync` starts a sync,
    /// `requestPush` sends what a save queued (by default, a sync).
    init(
        accounts: Accounts, slot: AccountSlot, inbox: EventInbox, requestSync: @escaping @Sendable () -> Void,
        requestPush: (@Sendable () -> Void)? = nil,
        healthSource: (@Sendable (String) throws -> any HealthSource)?, exportFiles: (any ExportFiles)? = nil,
        home: String?
    ) {
        self.exportFiles = exportFiles
        self.accounts = accounts
        self.slot = slot
        self.inbox = inbox
        self.requestSync = requestSync
        self.requestPush = requestPush ?? requestSync
        self.healthSource = healthSource
        self.home = home
    }

    /// Waits until no task is left running (a quit right after Ctrl-S must not lose the save).
    func finish() async {
        while let task = work.withLock({ $0.running.values.first }) { await task.value }
    }

    /// How many effects are running now.
    var running: Int { work.withLock { $0.running.count } }

    /// Posts what `read` reads, unless a read of the same `kind` that began later was posted first:
    /// the screen never goes back to what an older read saw (a reload that read the goals just before
    /// a new goal was saved, and ended after it, would hide the new goal).
    private func postLatest(_ kind: String, _ read: () async throws -> Event) async throws {
        let stamp = reads.withLock { reads in
            defer { reads.next += 1 }
            return reads.next
        }
        let event = try await read()
        reads.withLock { reads in
            guard stamp > reads.posted[kind, default: -1] else { return }
            reads.posted[kind] = stamp
            inbox.post(event)
        }
    }

    /// Starts `effect`'s use case; the terminal's own effects (and `quit`) are not for this runner.
    func perform(_ effect: Effect) {
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
        case .save(let request):
            spawn {
                await self.save(SaveTarget(request)) { account in
                    let applied = try await account.apply(request, sending: true)
                    return applied.outcome.saved ? applied.view : nil
                }
            }
        case .importHealth(let path):
            let task = spawn { await self.importHealth(path) }
            importTask.withLock { $0 = task }
        case .cancelImport:
            importTask.withLock { $0?.cancel() }
        case .confirmImport:
            spawn { await self.confirmImport() }
        case .declineImport:
            pendingImport.withLock { $0 = nil }
        case .syncNow:
            requestSync()
        case .retryRejected:
            spawn { await self.changeOutbox { try await $0.retryRejected() } }
        case .resolveConflict(let field, let keepLocal):
            spawn {
                await self.changeOutbox {
                    try await $0.apply(.resolveConflict(field: field, keepLocal: keepLocal))
                }
            }
        case .discardRejected:
            spawn { await self.changeOutbox { try await $0.discardRejected() } }
        case .undo:
            spawn {
                await self.report { account in
                    guard case .undone(let step?) = try await account.apply(.undo).outcome else {
                        return tr("Nothing to undo.")
                    }
                    return tr("Undid {step}.", ["step": step.description])
                }
            }
        case .deleteEntry(let metric, let id):
            spawn {
                await self.report { account in
                    let applied = try await account.apply(.delete(metric, id: id))
                    guard case .deleted(let removed) = applied.outcome else { return "" }
                    let units = applied.view.profile?.preferredUnitSystem ?? .metric
                    return tr(
                        "Removed {value}; u undoes it.", ["value": metric.format(removed.quantity, unitSystem: units)])
                }
            }
        case .correctEntry(let metric, let id, let value):
            spawn {
                await self.report { account in
                    let applied = try await account.apply(.correct(metric, id: id, to: value))
                    guard case .corrected(let before, let after) = applied.outcome else { return "" }
                    let units = applied.view.profile?.preferredUnitSystem ?? .metric
                    return tr(
                        "Corrected {before} to {after}; u undoes it.",
                        [
                            "before": metric.format(before.quantity, unitSystem: units),
                            "after": metric.format(after.quantity, unitSystem: units),
                        ])
                }
            }
        case .loadProgress(let series):
            read { account in
                try await self.postLatest("goals") { .goalsLoaded(try await account.goals()) }
                try await self.postLatest("progress \(series)") {
                    .progressLoaded(try await account.progressHistory(of: series))
                }
            }
        case .loadToday:
            read { account in try await self.postLatest("today") { .todayLoaded(try await account.today()) } }
        case .loadEntries(let metric):
            read { account in
                try await self.postLatest("entries \(metric.id)") {
                    .entriesLoaded(try await account.latestEntries(of: metric))
                }
            }
        case .setGoal(let metric, let target, let by):
            spawn {
                await self.report { account in
                    let applied = try await account.apply(.setGoal(metric, target: target, by: by))
                    guard case .goalSet(let goal) = applied.outcome else { return "" }
                    try await self.postLatest("goals") { .goalsLoaded(try await account.goals()) }
                    let units = applied.view.profile?.preferredUnitSystem ?? .metric
                    let target = metric.format(goal.target, unitSystem: units)
                    return goal.by.map {
                        tr(
                            "Goal set: {target} by {day}, kept on this machine.",
                            ["target": target, "day": $0.description])
                    } ?? tr("Goal set: {target}, kept on this machine.", ["target": target])
                }
            }
        case .clearGoal(let metric):
            spawn {
                await self.report { account in
                    let cleared = try await account.apply(.clearGoal(metric)).outcome.saved
                    try await self.postLatest("goals") { .goalsLoaded(try await account.goals()) }
                    return cleared
                        ? tr("The {measurement} goal is cleared.", ["measurement": metric.complement])
                        : tr("There was no {measurement} goal.", ["measurement": metric.complement])
                }
            }
        case .switchAccount(let email):
            spawn { await self.switchAccount(to: email) }
        case .quit, .repaint, .suspend, .editExternally:
            break
        }
    }

    /// Runs `operation` as a task of its own, kept in `work` until it ends. The task is stored under the
    /// lock it takes to remove itself, so it cannot end before it is stored.
    @discardableResult
    private func spawn(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        work.withLock { work in
            let number = work.next
            work.next += 1
            let task = Task {
                await operation()
                self.work.withLock { _ = $0.running.removeValue(forKey: number) }
            }
            work.running[number] = task
            return task
        }
    }

    /// Runs a screen's read of the account as a task; a failure is said on the message line.
    private func read(_ body: @escaping @Sendable (Account) async throws -> Void) {
        spawn {
            guard let account = self.slot.account else { return }
            do {
                try await body(account)
            } catch {
                self.inbox.post(.notice(ShownError(error).description, isError: true))
            }
        }
    }

    /// Works on the account `email` from now on: the background sync, the cache watch and every
    /// effect follow the slot; the screen drops what it showed of the last one.
    private func switchAccount(to email: String) async {
        do {
            let account = try await accounts.account(email: email)
            guard let view = await inbox.view(of: account) else {
                throw AccountError.unknownAccount(email, known: try await accounts.known())
            }
            slot.set(account)
            inbox.post(.accountSwitched(view))
            requestSync()
        } catch {
            inbox.post(.notice(ShownError(error).description, isError: true))
        }
    }

    /// Tells the screen the emails of the accounts signed in on this server (`:account` completes them).
    func listAccounts() async {
        guard let known = try? await accounts.known() else { return }
        inbox.post(.accountsListed(known.filter { $0.key.server == accounts.server }.map(\.email)))
    }

    private func signIn(_ operation: () async throws -> Accounts.SignedIn) async {
        do {
            let signedIn = try await operation()
            slot.set(signedIn.account)
            await listAccounts()
            await inbox.publish(signedIn.account)
            inbox.post(.connection(signedIn.profileError.map { .offline(ShownError($0).description) } ?? .online))
            requestSync()
        } catch {
            inbox.post(.signInFailed(ShownError(error)))
        }
    }

    private func save(_ form: SaveTarget, _ change: @Sendable (Account) async throws -> AccountView?) async {
        guard let account = slot.account else { return }
        do {
            guard let view = try await change(account) else {
                inbox.post(.nothingToSave(form))
                return
            }
            // Sent at once; the answer is the server's copy, so nothing is read after it.
            requestPush()
            // One event with the account the use case returned: the field loses its draft mark in the same
            // frame as the title shows the change pending (never a saved field under a stale "synced").
            inbox.shown(view)
            inbox.post(.saved(form, error: nil, account: view))
        } catch {
            inbox.post(.saved(form, error: ShownError(error)))
        }
    }

    /// Reports a reading's progress as events, one per percent at most: the screen is not flooded by a
    /// fast reader.
    private func percentReporter() -> @Sendable (HealthReadProgress) -> Void {
        let lastShown = Mutex(-1)
        return { [inbox] progress in
            guard let total = progress.totalBytes, total > 0 else { return }
            let percent = Int(progress.bytesRead * 100 / total)
            let changed = lastShown.withLock { shown in
                defer { shown = max(shown, percent) }
                return percent > shown
            }
            if changed { inbox.post(.healthImport(.reading(Double(percent) / 100))) }
        }
    }

    /// Reads the export at `path` (typed by the user), reporting progress as events, and shows what
    /// importing it would do; nothing is written until Enter (``confirmImport()``). An Apple Health
    /// export is read through the health source, anything else through the importers' table.
    private func importHealth(_ path: String) async {
        guard let account = slot.account, let open = healthSource else { return }
        let expanded = UserPath.expand(path, home: home)
        do {
            let pending: PendingImport
            let lines: [String]
            if let exportFiles, !exportFiles.isAppleHealthExport(expanded) {
                let profile = try await account.view().profile
                let options = ImportOptions(zone: account.environment.timeZone)
                let files = try exportFiles.read(
                    expanded, format: nil, options: options, heightCm: profile?.heightCm, progress: percentReporter())
                guard
                    case .imported(let preview, _) = try await account.apply(.importFiles(files, preview: true)).outcome
                else { return }
                pending = .files(files)
                lines = preview.summary(
                    of: files, preview: true, zone: exportFiles.zoneName, timeZone: account.environment.timeZone,
                    describe: { exportFiles.describe(format: $0) })
            } else {
                let source = try open(expanded)
                let snapshot = try await source.read(progress: percentReporter())
                let fileName = source.name
                try Task.checkCancellation()
                let request = ChangeRequest.importHealth(snapshot, fileName: fileName, preview: true)
                guard case .healthImported(let preview) = try await account.apply(request).outcome else { return }
                pending = .health(snapshot, fileName: fileName)
                let profile = try await account.view().profile
                // As `import --dry-run`: the first line, what became of biological sex, waits for Enter.
                lines = Array(
                    preview.summary(
                        unitSystem: profile?.metadata.preferredUnitSystem ?? .metric, profileDateOfBirth: nil
                    ).dropFirst())
            }
            try Task.checkCancellation()
            pendingImport.withLock { $0 = (pending, for: account.key) }
            inbox.post(.healthImport(.preview(lines)))
        } catch is CancellationError {
            inbox.post(.healthImport(.failed(ShownError(said: tr("Import stopped; nothing was imported.")))))
        } catch {
            inbox.post(.healthImport(.failed(ShownError(error))))
        }
    }

    /// Imports what the preview showed, into the account it was read for (another account now open
    /// imports nothing, and says so).
    private func confirmImport() async {
        guard let (pending, key) = pendingImport.withLock({ $0.take() }) else { return }
        guard let account = slot.account, account.key == key else {
            inbox.post(.healthImport(.failed(ShownError(said: tr("Import stopped; nothing was imported.")))))
            return
        }
        do {
            let lines: [String]
            switch pending {
            case .files(let files):
                guard
                    case .imported(let result, _) = try await account.apply(.importFiles(files), sending: true).outcome
                else { return }
                lines = result.summary(
                    of: files, preview: false, zone: exportFiles?.zoneName ?? "UTC",
                    timeZone: account.environment.timeZone, describe: { exportFiles?.describe(format: $0) ?? $0 })
            case .health(let snapshot, let fileName):
                let request = ChangeRequest.importHealth(snapshot, fileName: fileName)
                guard case .healthImported(let result) = try await account.apply(request).outcome else { return }
                let profile = try? await account.view().profile
                lines = result.summary(
                    unitSystem: profile?.metadata.preferredUnitSystem ?? .metric,
                    profileDateOfBirth: profile?.physical.dateOfBirth)
            }
            inbox.post(.healthImport(.finished(lines)))
            await inbox.publish(account)
            requestSync()
        } catch {
            inbox.post(.healthImport(.failed(ShownError(error))))
        }
    }

    /// Runs a change whose result the user reads as a sentence; then shows the account and syncs.
    private func report(_ change: @Sendable (Account) async throws -> String) async {
        guard let account = slot.account else { return }
        do {
            inbox.post(.notice(try await change(account), isError: false))
        } catch {
            inbox.post(.notice(ShownError(error).description, isError: true))
        }
        await inbox.publish(account)
        requestSync()
    }

    private func changeOutbox(_ change: @Sendable (Account) async throws -> Void) async {
        guard let account = slot.account else { return }
        try? await change(account)
        await inbox.publish(account)
        requestSync()
    }
}

/// An export read and previewed, waiting for Enter.
private enum PendingImport {
    /// Another app's files.
    case files([ImportedFile])
    /// An Apple Health export's health data.
    case health(HealthSnapshot, fileName: String?)
}
