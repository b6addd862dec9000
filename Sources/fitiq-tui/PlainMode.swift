import FitIQCore
import FitIQImport
import FitIQLocalization
import FitIQTUI
import FitIQWords

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

/// The editor for screen readers, dumb terminals, `script` logs and scripted input (`--plain`,
/// `FITIQ_PLAIN=1`, `TERM` unset or `dumb`): labelled lines and a `fitiq>` prompt that reads one command per line,
/// from a terminal or a pipe. No full screen, no boxes, no cursor addressing; every answer is one or
/// more complete sentences, over the core's form (``ProfileEdits``) as the editor's: the same fields,
/// drafts, checks and saves (``Account/apply(_:sending:)``).
struct PlainMode {
    let accounts: Accounts
    var account: Account?
    /// Edits made with `set` and not saved yet.
    private var edits = ProfileEdits()
    /// How the language is chosen: each line is answered in the language of the profile as cached then
    /// (unless `FITIQ_LANG`), so `set language fr` and `save` answer in French from the next line on.
    let language: EditorLanguage

    init(accounts: Accounts, account: Account?, language: EditorLanguage = EditorLanguage()) {
        self.accounts = accounts
        self.account = account
        self.language = language
    }

    /// The language of the profile as cached now.
    private func localizer() async -> Localizer {
        let profileLanguage = try? await account?.view().profile?.languageCode
        return language.catalogs.localizer(language.settings, profile: profileLanguage ?? nil)
    }

    /// Whether plain mode is asked for: `--plain` or `FITIQ_PLAIN=1`. (It also starts when no terminal
    /// type works, `TERM=dumb` among them: ``TUILauncher/open(accounts:account:plain:mouse:environment:)``.)
    static func isWanted(flag: Bool, environment: [String: String]) -> Bool {
        flag || environment["FITIQ_PLAIN"] == "1"
    }

    /// Runs until `quit` or the end of the input.
    mutating func run() async {
        if account == nil {
            let signedIn = await speaking(await localizer()) { await signIn() }
            guard signedIn else { return }
        }
        await speaking(await localizer()) {
            await show()
            say(tr("Type help for the commands."))
        }
        while true {
            StandardStreams.write("fitiq> ", to: STDOUT_FILENO)
            guard let line = readLine(strippingNewline: true) else {
                speaking(await localizer()) { endOfInput() }
                return
            }
            let words = line.trimmingWhitespace()
            if words.isEmpty { continue }
            let goesOn = await speaking(await localizer()) { await handle(words) }
            if !goesOn { return }
        }
    }

    /// Carries out one command (parsed as the editor's `:` line parses it); returns `false` when the
    /// session ends.
    private mutating func handle(_ line: String) async -> Bool {
        let command: PromptCommand
        switch PromptCommand.parse(line) {
        case .success(let parsed): command = parsed
        case .failure(let problem):
            say(problem.description)
            return true
        }
        switch command {
        case .show: await show()
        case .set(let field, let value): await set(field, value)
        case .save: await save()
        case .sync: await sync()
        case .status: await status()
        case .undo: await undo()
        case .history(let metric): await history(metric)
        case .trend(let series, let range, let period): await trend(series, range, by: period)
        case .goals, .goal, .setGoal, .clearGoal: await goal(command)
        case .importFile(let path): await importHealth(path)
        case .today: await today()
        case .log(let metric, let value, let when): await log(metric, value, when)
        case .account(let email): await switchAccount(to: email)
        case .help: help()
        case .quit: return await quit()
        }
        return true
    }

    // MARK: Commands

    /// `account EMAIL`: another account signed in on this machine from now on; edits not saved stay
    /// behind (they were typed for the other account).
    private mutating func switchAccount(to email: String) async {
        do {
            let chosen = try await accounts.account(email: email)
            let dropped = !edits.drafts.isEmpty
            account = chosen
            edits = ProfileEdits()
            let shown = TextSanitizer.sanitize(chosen.email)
            say(
                dropped
                    ? tr("Now on {email}'s profile; the edits not saved were dropped.", ["email": shown])
                    : tr("Now on {email}'s profile.", ["email": shown]))
        } catch {
            say(ShownError(error).description)
        }
    }

    private func show() async {
        guard let account, let view = try? await account.view() else {
            return say(tr("No profile is cached yet; run sync."))
        }
        say(tr("You are signed in as {email}.", ["email": TextSanitizer.sanitize(account.email)]))
        say(Output.profileText(view))
        for field in ProfileField.allCases {
            guard let editable = field.editable, let shown = edits.shown(editable, over: view) else { continue }
            say(
                tr(
                    "{field} will be {value} once you save (not saved yet).",
                    ["field": field.label, "value": shown]))
        }
    }

    /// The account as cached now, for the form; `nil` before its profile was first read.
    private func cachedView() async -> AccountView? {
        guard let view = try? await account?.view(), view.profile != nil else { return nil }
        return view
    }

    private mutating func set(_ field: ProfileField, _ value: String) async {
        let view = await cachedView()
        if field.editable != nil, view == nil { return say(tr("No profile is cached yet; run sync.")) }
        say(edits.draft(field, value, over: view, canImport: true).sentence)
    }

    private mutating func save() async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        guard let view = await cachedView(), !edits.drafts.isEmpty else { return say(tr("There is nothing to save.")) }
        let (requests, problems) = edits.changes(over: view)
        for field in EditableField.allCases { if let problem = problems[field] { say(problem.description) } }
        guard problems.isEmpty else { return say(tr("Nothing was saved; fix the values above.")) }
        // Each form is its own change, saved here first, then sent.
        do {
            for request in requests {
                try await account.apply(request)
            }
        } catch {
            return say(tr("Nothing was saved: {error}", ["error": ShownError(error).description]))
        }
        edits = ProfileEdits()
        say(tr("Saved on this machine."))
        await tell { try await account.deliver() }
    }

    /// `log METRIC VALUE …`: logged on this machine, then sent, as a command's `log` is.
    private func log(_ metric: Metric, _ value: String, _ when: LogWhen) async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        do {
            guard let profile = try await account.view().profile else {
                return say(tr("No profile is cached yet; run sync."))
            }
            let units = profile.preferredUnitSystem
            let parsed = try metric.parse(value, unitSystem: units)
            let (day, time) = try when.resolved()
            let applied = try await account.apply(
                .measurement(metric, parsed, day: day, time: time, notes: when.note))
            say(LogSentences.said(applied.outcome, of: metric, units: units, day: day, time: time))
            guard applied.outcome.saved else { return }
        } catch {
            return say(tr("Nothing was saved: {error}", ["error": ShownError(error).description]))
        }
        await tell { try await account.deliver() }
    }

    /// `today`: what `fitiq-tui today` prints.
    private func today() async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        do {
            let metrics = try await account.today()
            let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
            let day = CalendarDate(containing: account.environment.now(), in: account.environment.timeZone)
            say(Output.todayText(metrics, units: units, today: day, graphics: .ascii))
        } catch {
            say(ShownError(error).description)
        }
    }

    private func sync() async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        await tell { try await account.syncNow(until: account.environment.clock.date(after: Account.deliveryDeadline)) }
    }

    /// Says how a send went: a save's delivery, or a sync.
    private func tell(_ sending: () async throws -> SyncReport) async {
        do {
            let report = try await sending()
            if report.isSynced {
                say(tr("Synced: the server has every change."))
            } else if report.rejected > 0 {
                say(
                    trn(
                        "The server refused {count} change; type status to see why.",
                        "The server refused {count} changes; type status to see why.", count: report.rejected))
            } else {
                let reason = report.lastProblem.map { " (\(TextSanitizer.sanitize($0.description)))" } ?? ""
                say(
                    trn(
                        "{count} change could not be sent yet{reason}; it is kept here.",
                        "{count} changes could not be sent yet{reason}; they are kept here.", count: report.pending,
                        ["reason": reason]))
            }
        } catch {
            say(
                tr(
                    "Not synced: {error}. Your changes are kept here.",
                    ["error": ShownError(error).description]))
        }
    }

    private func status() async {
        guard let account, let status = try? await account.status() else { return say(tr("Nothing is signed in.")) }
        let when =
            status.lastSyncAt.map { tr("The last sync was at {time}.", ["time": RFC3339.format($0)]) }
            ?? tr("It has never synced.")
        let values = ["email": TextSanitizer.sanitize(status.email), "server": status.server]
        say(
            (status.signedIn
                ? tr("You are signed in as {email} on {server}.", values)
                : tr("You are signed out as {email} on {server}.", values)) + " " + when)
        if status.changes.isEmpty { return say(ProfileSentences.everyChangeSent) }
        for change in status.changes {
            if let rejection = change.rejection {
                say(
                    tr(
                        "The server refused {change}: {message}.",
                        ["change": change.summary, "message": TextSanitizer.sanitize(rejection)]))
            } else {
                let hold = change.hold.map { " (\($0.advice(now: Date())))" } ?? ""
                say(tr("Waiting to be sent: {change}.", ["change": change.summary + hold]))
            }
        }
    }

    /// `undo`: the last saved change taken back, as the editor's u does.
    private func undo() async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        do {
            guard case .undone(let step?) = try await account.apply(.undo).outcome else {
                return say(tr("Nothing to undo."))
            }
            say(tr("Undid {step}.", ["step": TextSanitizer.sanitize(step.description)]))
            await sync()
        } catch {
            say(ShownError(error).description)
        }
    }

    private func history(_ metric: Metric) async {
        guard let account, let entries = try? await account.history(of: metric, refresh: false) else {
            return say(tr("Nothing is signed in."))
        }
        guard !entries.isEmpty else {
            return say(tr("There is no {measurement} history yet.", ["measurement": metric.complement]))
        }
        let units = (try? await account.view().profile?.preferredUnitSystem) ?? .metric
        for entry in entries {
            let day = CalendarDate(containing: entry.loggedAt, in: accounts.environment.timeZone)
            let values = [
                "day": day.description, "value": metric.format(entry.quantity, unitSystem: units),
                "source": entry.source.shown,
            ]
            say(
                entry.isSynced
                    ? tr("On {day}: {value}, {source}, on the server.", values)
                    : tr("On {day}: {value}, {source}, not on the server yet.", values))
        }
    }

    private func importHealth(_ typed: String) async {
        guard let account else { return say(tr("Nothing is signed in.")) }
        let expanded = UserPath.expand(typed, home: ProcessInfo.processInfo.environment["HOME"])
        let exports = ExportWalk()
        if !exports.isAppleHealthExport(expanded) {
            do {
                let profile = try await account.view().profile
                let options = ImportOptions(zone: account.environment.timeZone)
                let files = try exports.read(
                    expanded, format: nil, options: options, heightCm: profile?.heightCm, progress: { _ in })
                guard
                    case .imported(let result, _) = try await account.apply(.importFiles(files), sending: true).outcome
                else { return }
                for line in result.summary(
                    of: files, preview: false, zone: exports.zoneName, timeZone: account.environment.timeZone,
                    describe: ExportFormat.describe)
                {
                    say(line)
                }
                await sync()
            } catch {
                say(tr("Nothing was imported: {error}", ["error": ShownError(error).description]))
            }
            return
        }
        do {
            let source = try TUILauncher.openHealthExport(expanded)
            say(tr("Reading {file}; this can take a while.", ["file": TextSanitizer.sanitize(expanded)]))
            let request = try await source.importRequest()
            guard case .healthImported(let result) = try await account.apply(request).outcome else { return }
            let profile = try? await account.view().profile
            for line in result.summary(
                unitSystem: profile?.preferredUnitSystem ?? .metric, profileDateOfBirth: profile?.dateOfBirth)
            {
                say(line.hasSuffix(".") ? line : line + ".")
            }
            await sync()
        } catch {
            say(tr("Nothing was imported: {error}", ["error": ShownError(error).description]))
        }
    }

    private func help() {
        for line in PromptCommand.helpLines { say(line) }
    }

    private var unsavedCount: Int { edits.drafts.count }

    private mutating func quit() async -> Bool {
        guard unsavedCount > 0 else { return false }
        StandardStreams.write(tr("Save changes? (y/n) "), to: STDOUT_FILENO)
        guard let answer = readLine(strippingNewline: true) else {
            endOfInput()
            return false
        }
        if answer.trimmingWhitespace().lowercased().hasPrefix("y") {
            await save()
        } else {
            say("\(notSaved(unsavedCount)).")
        }
        return false
    }

    private func endOfInput() {
        guard unsavedCount > 0 else { return say(tr("End of input.")) }
        say(tr("End of input: {what}.", ["what": notSaved(unsavedCount)]))
    }

    // MARK: Signing in

    private mutating func signIn() async -> Bool {
        say(tr("Nobody is signed in here. Sign in to {server}.", ["server": accounts.server]))
        StandardStreams.write(tr("Email: "), to: STDOUT_FILENO)
        guard let email = readLine(strippingNewline: true)?.trimmingWhitespace(), !email.isEmpty else {
            say(tr("End of input: nobody signed in."))
            return false
        }
        guard let password = PasswordReader.readLine(prompt: tr("Password: ")) else {
            say(tr("End of input: nobody signed in."))
            return false
        }
        do {
            let signedIn = try await accounts.signIn(email: email, password: password)
            account = signedIn.account
            say(ProfileSentences.signedIn(as: signedIn.account.email))
            return true
        } catch {
            say(tr("Not signed in: {error}", ["error": ShownError(error).description]))
            return false
        }
    }

    private func notSaved(_ count: Int) -> String {
        trn("{count} change was not saved", "{count} changes were not saved", count: count)
    }

    /// Writes a line (unbuffered, like the prompts, so they never come out of order).
    func say(_ sentence: String) {
        StandardStreams.write(sentence + "\n", to: STDOUT_FILENO)
    }
}
