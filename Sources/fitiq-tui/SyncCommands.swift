import ArgumentParser
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Send pending changes and fetch the server's copy.",
        discussion: "With --wait, retries until everything is delivered (exit 0) or the timeout passes (exit 4).")

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Keep retrying until every change is delivered or the timeout passes.") var wait = false
    @Option(help: "Seconds to keep retrying with --wait.") var timeout: Double = 30

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    func run() async throws {
        try await withApp(globals) { app in
            let account = try app.requireAccount()
            let seconds = wait ? timeout : 15
            let deadline = Date().addingTimeInterval(seconds)
            do {
                _ = try await withDeadline(seconds: seconds + 1) { try await account.syncNow(until: deadline) }
            } catch let error as SessionError {
                throw error
            } catch {
                printError("Sync incomplete: \(TextSanitizer.sanitize(String(describing: error)))")
            }
            let status = try await account.status()
            if status.pendingChanges == 0 && status.rejectedChanges == 0 {
                print("Synced: the server has every change.")
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
    @Flag(help: "Print JSON: server, email, signedIn, lastSyncAt, pendingChanges, rejected.") var json = false

    func run() async throws {
        try await withApp(globals) { app in
            let account = try app.requireAccount()
            let status = try await account.status()
            print(json ? Output.json(Output.status(status)) : Output.statusText(status))
        }
    }
}
