import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct Register: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Create an account (13 or older) and sign in.",
        discussion:
            "The password is read from standard input when it is not a terminal, else prompted twice without echo.")

    @OptionGroup var globals: GlobalOptions
    @Option(help: "Your email address.") var email: String
    @Option(help: "Your name as others see it.") var name: String
    @Option(help: "Your date of birth, YYYY-MM-DD (you must be 13 or older).") var dateOfBirth: String

    func validate() throws {
        let today = CalendarDate(containing: Date(), in: .system)
        try checkingRules {
            _ = try ProfileRules.email(email)
            _ = try ProfileRules.name(name)
            _ = try ProfileRules.dateOfBirth(dateOfBirth, today: today)
        }
    }

    func run() async throws {
        try await withApp(globals, sending: true) { app in
            let accounts = try app.requireAccounts()
            let password = try PasswordReader.read(prompt: tr("Choose a password: "))
            if StandardStreams.isTerminal(0), try PasswordReader.read(prompt: tr("Repeat it: ")) != password {
                throw ValidationError(tr("The two passwords differ."))
            }
            let signedIn = try await accounts.register(
                email: email, password: password, name: name, dateOfBirth: dateOfBirth)
            announce(signedIn)
        }
    }
}

struct Login: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in and load your profile.",
        discussion: "The password is read from standard input when it is not a terminal, else prompted without echo.")

    @OptionGroup var globals: GlobalOptions
    @Option(help: "Your email address.") var email: String
    @Option(help: "Your name, used only if the account has no profile yet.") var name: String?

    func validate() throws {
        try checkingRules {
            _ = try ProfileRules.email(email)
            if let name { _ = try ProfileRules.name(name) }
        }
    }

    func run() async throws {
        try await withApp(globals, sending: true) { app in
            let accounts = try app.requireAccounts()
            let password = try PasswordReader.read(prompt: tr("Password for {email}: ", ["email": email]))
            announce(try await accounts.signIn(email: email, password: password, nameForNewProfile: name))
        }
    }
}

func announce(_ signedIn: Accounts.SignedIn) {
    print(
        tr(
            "Signed in as {email} on {server}.",
            ["email": TextSanitizer.sanitize(signedIn.account.email), "server": signedIn.account.key.server]))
    if let error = signedIn.profileError {
        print(
            tr(
                "The profile could not be loaded yet ({error}); run `fitiq-tui sync` later.",
                ["error": ShownError(error).description]))
    }
}

struct Logout: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out and delete this account's cached data and tokens from this machine.",
        discussion: """
            Signs out the account named (EMAIL, --account or FITIQ_ACCOUNT), else the default one; other \
            accounts are kept. Syncs first. Refuses (exit 4) while changes have not reached the server, \
            naming them.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The account to sign out, by email (else --account, FITIQ_ACCOUNT or the default).")
    var email: String?
    @Flag(help: "Sign out even if changes have not reached the server; they are lost.") var discardPending = false

    /// It syncs first.
    static func sends(_ arguments: [String]) -> Bool { true }

    func run() async throws {
        var config = AppConfig.live(options: globals)
        if let email { config.accountFlag = email }
        try await withApp(config, sending: true) { app in
            let account = try app.requireAccount()
            try await app.requireAccounts().signOut(account, discardPending: discardPending)
            print(
                tr(
                    "Signed out {email} on {server}; its cached data and tokens were deleted.",
                    ["email": TextSanitizer.sanitize(account.email), "server": account.key.server]))
            // The default signed out, others left: no command picks one of them silently.
            let others = try await app.directory.knownAccounts()
            if !others.isEmpty, try await app.directory.currentAccount(server: account.key.server) == nil {
                print(
                    tr(
                        "No account is the default now; `fitiq-tui accounts use EMAIL` makes one of these the default: {accounts}.",
                        ["accounts": others.map { TextSanitizer.sanitize($0.email) }.joined(separator: ", ")]))
            }
        }
    }
}

struct Whoami: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the account signed in.")

    @OptionGroup var globals: GlobalOptions
    @Flag(help: "Print JSON: server, email, userId.") var json = false

    func run() async throws {
        try await withApp(globals, machineOutput: json) { app in
            let account = try app.requireAccount()
            if json {
                print(
                    Output.json(["server": account.key.server, "email": account.email, "userId": account.key.userId]))
            } else {
                print(
                    tr(
                        "{email} on {server}",
                        ["email": TextSanitizer.sanitize(account.email), "server": account.key.server]))
            }
        }
    }
}
