import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `accounts`: the accounts signed in on this machine, and `accounts use EMAIL` to choose the default.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "List the accounts signed in on this machine, or choose the default one.",
        discussion: """
            Each account keeps its own cache, pending changes, undo log, goals and tokens. --account EMAIL \
            (or FITIQ_ACCOUNT) chooses one for a single command or the editor; `accounts use EMAIL` makes \
            one the default.
            """,
        subcommands: [AccountsList.self, AccountsUse.self],
        defaultSubcommand: AccountsList.self)
}

struct AccountsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the accounts: server, email, name, pending changes, last sync.")

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Print JSON: server, email, userId, name, pendingChanges, lastSyncAt, default.") var json = false

    struct Row: Encodable {
        var server: String
        var email: String
        var userId: String
        var name: String?
        var pendingChanges: Int
        var lastSyncAt: String?
        var `default`: Bool
    }

    func run() async throws {
        try await withApp(globals, machineOutput: json) { app in
            var rows: [Row] = []
            for known in try await app.directory.knownAccounts() {
                let state = try await app.directory.profileStore(for: known.key).overview().state
                rows.append(
                    Row(
                        server: known.key.server, email: known.email, userId: known.key.userId,
                        name: state.profile?.name, pendingChanges: state.pending.count,
                        lastSyncAt: state.server.lastSyncAt.map(RFC3339.format),
                        default: known.key == app.setup.defaultAccount))
            }
            if json { return print(Output.json(rows)) }
            guard !rows.isEmpty else {
                return print(
                    tr("No account is signed in on this machine. Run `fitiq-tui login --email you@example.com`."))
            }
            for row in rows {
                print(
                    (row.default ? "* " : "  ")
                        + tr(
                            "{email} ({name}) on {server}: {pending}, last sync {lastSync}",
                            [
                                "email": TextSanitizer.sanitize(row.email),
                                "name": TextSanitizer.sanitize(row.name ?? "?"), "server": row.server,
                                "pending": trn(
                                    "{count} change pending", "{count} changes pending", count: row.pendingChanges),
                                "lastSync": row.lastSyncAt ?? tr("never"),
                            ]))
            }
            print(
                tr("* the default; `fitiq-tui accounts use EMAIL` changes it, --account EMAIL chooses one per command.")
            )
        }
    }
}

struct AccountsUse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use", abstract: "Make an account the default: the one used when no --account names another.")

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The email of an account signed in on this machine (`accounts` lists them).") var email: String

    func run() async throws {
        var config = AppConfig.live(options: globals)
        config.accountFlag = email
        try await withApp(config) { app in
            let account = try app.requireAccount()
            try await app.directory.setCurrentAccount(account.key)
            print(
                tr(
                    "{email} on {server} is now the default account.",
                    ["email": TextSanitizer.sanitize(account.email), "server": account.key.server]))
        }
    }
}
