import ArgumentParser
import FitIQCache
import FitIQCatalogs
import FitIQCore
import FitIQHTTP
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Exit codes scripts rely on (docs/commands.md "Exit codes").
enum Exit {
    static let notSignedIn = ExitCode(3)
    static let pending = ExitCode(4)
    static let usage = ExitCode(64)
}

/// Runs a command body with a wired app, closing it afterwards, and turns errors into a message on
/// standard error and the documented exit code.
///
/// The body speaks the user's language (``App/localizer(environment:)``): `FITIQ_LANG`, the signed-in
/// profile's language, then the locale variables. With `machineOutput` (`--json`, `--csv`) it speaks
/// English: keys and values of machine output are never translated, and a value built by a sentence's
/// formatter (a height in a conflict) keeps its decimal point.
func withApp(
    _ globals: GlobalOptions, machineOutput: Bool = false, sending: Bool = false,
    _ body: (App) async throws -> Void
) async throws {
    try await withApp(.live(options: globals), machineOutput: machineOutput, sending: sending, body)
}

/// Runs a command body with the app wired from `config`.
///
/// Without `readingProfileFirst` (the editor, whose screens speak the profile's language on their
/// own), the body speaks the environment's language, so nothing reads the cache before the editor
/// does; a failure is still reported in the profile's. With `sending`, the command is about to talk to
/// the server: libcurl loads meanwhile (``makeApp(config:sending:)``), unless `main` started loading it
/// already (``FitIQCommand/willSend(_:)``, which leaves out what it cannot tell before parsing).
func withApp(
    _ config: AppConfig, machineOutput: Bool = false, readingProfileFirst: Bool = true, sending: Bool = false,
    _ body: (App) async throws -> Void
) async throws {
    let settings = LanguageSettings(environment: config.environment)
    let app: App
    do {
        app = try await makeApp(config: config, sending: sending)
    } catch {
        // No profile yet: the environment's language.
        throw speaking(Catalogs.embedded.localizer(settings, profile: nil)) { report(error) }
    }
    let localizer =
        machineOutput
        ? Localizer.english
        : readingProfileFirst
            ? await app.localizer(settings) : Catalogs.embedded.localizer(settings, profile: nil)
    do {
        try await speaking(localizer) { try await body(app) }
    } catch {
        await app.shutdown()
        let reporting = machineOutput || readingProfileFirst ? localizer : await app.localizer(settings)
        throw speaking(reporting) { report(error) }
    }
    await app.shutdown()
}

/// Prints `error` for people and returns the exit code to leave with.
func report(_ error: any Error) -> any Error {
    if error is ExitCode || error is CleanExit { return error }
    let message = ShownError(error).description
    printError(tr("Error: {message}", ["message": message]))
    switch error {
    case is SessionError: return Exit.notSignedIn
    case CorrectionError.noSuchEntry: return Exit.usage
    case AccountError.pendingChanges: return Exit.pending
    case AccountError.unknownAccount: return Exit.usage
    case is FitIQCore.ValidationError, is ServerAddress.Problem, is ImportError: return Exit.usage
    default: return ExitCode.failure
    }
}

func printError(_ text: String) {
    StandardStreams.writeError(text + "\n")
}

/// Runs `operation`, giving up after `seconds` (a slow or silent server never blocks a command for long).
func withDeadline<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T
{
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw RemoteError.unreachable(message: .noAnswerWithin(seconds: Int(seconds)))
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}

/// After a local save: delivers it (``syncAfterWrite(_:seconds:)``), or with `--no-sync` says how it will be.
func finishWrite(_ account: Account, noSync: Bool) async throws {
    guard noSync else { return try await syncAfterWrite(account) }
    print(tr("Saved locally; `fitiq-tui sync` (or the next write) sends it."))
}

/// Saves were made locally; delivers them (``Account/deliver()``, within its one deadline) and says
/// what is still pending.
func syncAfterWrite(_ account: Account) async throws {
    let report: SyncReport
    do {
        report = try await account.deliver()
    } catch let error as SessionError {
        throw error
    } catch {
        print(
            tr(
                "Saved locally; not sent yet ({error}). It will be sent by the next sync.",
                ["error": ShownError(error).description]))
        return
    }
    let view = try await account.view()
    let conflicts = view.conflicts
    if !conflicts.isEmpty {
        for conflict in conflicts {
            print(
                tr(
                    "Not sent: {field} changed on the server too (here \"{local}\", on the server \"{server}\"). Run `fitiq-tui resolve {field} --keep-local` or `--take-server`.",
                    [
                        "field": conflict.field, "local": TextSanitizer.sanitize(conflict.local),
                        "server": TextSanitizer.sanitize(conflict.server),
                    ]))
        }
    } else if report.isSynced {
        print(tr("Saved and synced."))
    } else if report.rejected > 0 {
        for change in view.pendingChanges where change.rejection != nil {
            print(ProfileSentences.rejected(change.summary + ": " + (change.rejection ?? "")))
        }
    } else {
        let reason = report.lastProblem.map { " (\(TextSanitizer.sanitize($0.description)))" } ?? ""
        print(
            trn(
                "Saved locally; {count} change pending{reason}. Run `fitiq-tui sync --wait` to retry.",
                "Saved locally; {count} changes pending{reason}. Run `fitiq-tui sync --wait` to retry.",
                count: report.pending, ["reason": reason]))
    }
}

/// Runs the rule checks of `body`; a value a rule refuses is a usage error (exit 64) with the rule's
/// own message.
func checkingRules<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as FitIQCore.ValidationError {
        throw ArgumentParser.ValidationError(error.description)
    }
}
