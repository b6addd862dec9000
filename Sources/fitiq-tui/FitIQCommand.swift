import ArgumentParser

/// `fitiq-tui`: edit a FitIQ profile from the terminal or from scripts.
@main
struct FitIQCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitiq-tui",
        abstract: "Edit your FitIQ profile from a terminal: name, bio, units, language, height and its history.",
        discussion: """
            Every change is saved on this machine first, then sent to the server; nothing is lost while \
            offline. Sign in once with `login` (or `register`); later commands reuse that session.

            Server: --server URL, else FITIQ_SERVER, else "server" in $XDG_CONFIG_HOME/fitiq/config.json.
            API key: FITIQ_API_KEY, else --api-key-file PATH, else "apiKeyFile" in the config file.
            Exit codes: 0 ok, 1 error, 3 not signed in, 4 changes still pending or rejected, 64 bad usage.
            """,
        subcommands: [
            Register.self, Login.self, Logout.self, Whoami.self, ProfileCommand.self, HeightCommand.self,
            SyncCommand.self, StatusCommand.self,
        ]
    )

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        // The interactive editor arrives with the terminal UI; until then the commands are the interface.
        throw CleanExit.helpRequest(self)
    }
}
