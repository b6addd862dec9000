import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct SyncCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Send pending changes and fetch the server's copy.",
        discussion: "With --wait, retries until everything is delivered (exit 0) or the timeout passes (exit 4).")

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Keep retrying until every change is delivered or the timeout passes.") var wait = false
    @Option(help: "Seconds to keep retrying with --wait.") var timeout: Double = 30
    @Flag(help: "Send the changes the server refused again (after fixing what it said).") var retryRejected = false
    @Flag(help: "Drop the changes the server refused; this machine shows the server's values again.")
    var discardRejected = false

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
        guard !(retryRejected && discardRejected) else {
            throw ValidationError("Give --retry-rejected or --discard-rejected, not both.")
        }
    }

    func run() async throws {
        try await withApp(globals, sending: true) { app in
            let account = try app.requireAccount()
            if retryRejected {
                let retried = try await account.retryRejected()
                print(
                    retried.isEmpty
                        ? tr("No change was rejected.")
                        : tr("Sending again: {changes}.", ["changes": retried.map(\.summary).joined(separator: "; ")]))
            }
            if discardRejected {
                let dropped = try await account.discardRejected()
                print(
                    dropped.isEmpty
                        ? tr("No change was rejected.")
                        : tr(
                            "Discarded: {changes}. This machine shows the server's values for them again.",
                            ["changes": dropped.map(\.summary).joined(separator: "; ")]))
            }
            // Without --wait, a sync keeps to a delivery's deadline; on the account's clock either way.
            let limit = wait ? Duration.seconds(timeout) : Account.deliveryDeadline
            let deadline = account.environment.clock.date(after: limit)
            do {
                let seconds = Double(limit.components.seconds) + 1
                _ = try await withDeadline(seconds: seconds) { try await account.syncNow(until: deadline) }
            } catch let error as SessionError {
                throw error
            } catch {
                printError(tr("Sync incomplete: {error}", ["error": ShownError(error).description]))
            }
            let status = try await account.status()
            if status.pendingChanges == 0 && status.rejectedChanges == 0 {
                print(tr("Synced: the server has every change."))
                return
            }
            print(Output.statusText(status))
            if wait { throw Exit.pending }
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show server, account, last sync, and pending or rejected changes.")

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Print JSON: server, email, signedIn, lastSyncAt, pendingChanges, pending, rejected, conflicts.")
    var json = false

    func run() async throws {
        try await withApp(globals, machineOutput: json) { app in
            let account = try app.requireAccount()
            let status = try await account.status()
            print(json ? Output.json(Output.status(status)) : Output.statusText(status))
        }
    }
}

struct UndoCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo the last saved change, and say what was undone.",
        discussion: """
            Run it again to walk back through the recent changes (the last 30 are kept). A change not sent yet \
            leaves the outbox; one already on the server is reversed by a new change (a logged height's entry \
            is deleted).
            """)

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func run() async throws {
        try await withApp(globals, sending: !noSync) { app in
            let account = try app.requireAccount()
            guard case .undone(let step?) = try await account.apply(.undo).outcome else {
                print(tr("Nothing to undo."))
                return
            }
            print(tr("Undid {step}.", ["step": TextSanitizer.sanitize(step.description)]))
            try await finishWrite(account, noSync: noSync)
        }
    }
}

struct ResolveCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Settle a field that changed both here and on another device.",
        discussion: """
            A field edited here that another device changed on the server since, to something else, is held \
            as a conflict: `status` shows both values, and the field is not sent until it is resolved. Other \
            fields are sent as usual.
            """)

    enum Field: String, ExpressibleByArgument, CaseIterable {
        case name, bio, units, language, height
    }

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The conflicted field: name, bio, units, language or height.") var field: Field
    @Flag(help: "Send this machine's value over the server's.") var keepLocal = false
    @Flag(help: "Take the server's value here and drop this machine's.") var takeServer = false
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func validate() throws {
        guard keepLocal != takeServer else {
            throw ValidationError("Give --keep-local or --take-server (one of them).")
        }
    }

    func run() async throws {
        try await withApp(globals, sending: !noSync) { app in
            let account = try app.requireAccount()
            let request = ChangeRequest.resolveConflict(field: field.rawValue, keepLocal: keepLocal)
            guard try await account.apply(request, sending: !noSync).outcome.saved else {
                print(tr("No conflict on {field}.", ["field": field.rawValue]))
                return
            }
            print(
                keepLocal
                    ? tr("Keeping this machine's {field}.", ["field": field.rawValue])
                    : tr("Took the server's {field}.", ["field": field.rawValue]))
            try await finishWrite(account, noSync: noSync)
        }
    }
}
