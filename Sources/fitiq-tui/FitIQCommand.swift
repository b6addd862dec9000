import ArgumentParser
import FitIQHTTP
import FitIQTUI
import FitIQVersion

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if os(Linux)
    import CMalloc
#endif

/// `fitiq-tui`: edit a FitIQ profile from the terminal or from scripts.
@main
struct FitIQCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fitiq-tui",
        abstract:
            "All of your FitIQ in a terminal: the profile, the body, steps, water, sleep, food, mood… with their history, trends and goals.",
        usage: "fitiq-tui [--server URL] [<command>]    (no command: the interactive editor)",
        discussion: """
            With no command, the interactive editor: the profile (name, bio, units, language), height, \
            weight and body fat with the BMI derived, each measurement's history and trend, goals, Today, \
            and the sync status. `log` logs any of the sixteen kinds of progress the server records (log \
            water 0.25 l, log steps 4000, log sleep 7h30m) and `today` shows the day. The commands below do \
            the same from scripts (--json, --csv). `import` brings your \
            history from Apple Health, Withings, Samsung Health, Fitbit, Google Fit, Garmin, Libra or Renpho. \
            Biological sex comes only from an Apple Health export and is never edited.

            Every change is saved on this machine first, then sent to the server; nothing is lost while \
            offline. Sign in once with `login` (or `register`); later commands reuse that session.

            Server: --server URL, else FITIQ_SERVER, else "server" in $XDG_CONFIG_HOME/fitiq/config.json.
            API key: FITIQ_API_KEY, else --api-key-file PATH, else "apiKeyFile" in the config file.
            Account: --account EMAIL, else FITIQ_ACCOUNT, else the default (`accounts` lists them, \
            `accounts use EMAIL` sets it).
            Exit codes: 0 ok, 1 error, 3 not signed in, 4 changes still pending or rejected, 64 bad usage.
            """,
        version: fitiqVersion,
        subcommands: [
            Register.self, Login.self, Logout.self, Whoami.self, AccountsCommand.self, ProfileCommand.self,
            HeightCommand.self,
            WeightCommand.self, BodyFatCommand.self, LogCommand.self, HistoryCommand.self, DeleteCommand.self,
            CorrectCommand.self,
            TodayCommand.self,
            GoalCommand.self, SummaryCommand.self, ExportCommand.self,
            ImportCommand.self,
            SyncCommand.self, StatusCommand.self, ResolveCommand.self, UndoCommand.self,
            DemoCommand.self,
        ]
    )

    @OptionGroup var globals: GlobalOptions

    @OptionGroup var editorOptions: EditorOptions

    @Option(help: "The symbols of charts: braille, block or ascii (also FITIQ_GRAPHICS; chosen by TERM and locale).")
    var graphics: String?

    func validate() throws {
        if let graphics, ChartGraphics(rawValue: graphics.lowercased()) == nil {
            throw ValidationError("--graphics must be braille, block or ascii.")
        }
    }

    /// Bare `fitiq-tui` and `fitiq-tui --server URL` open the editor, and `fitiq-tui today --line` (a
    /// shell's prompt) prints its line, without the argument parser (it reflects over every command's
    /// options first, which the first frame and the prompt would wait for); anything else is parsed as
    /// a command.
    static func main() async {
        StartupTrace.mark("main entered")
        // A cache write of an outbox of thousands (an import) is a large buffer. glibc raises its
        // threshold for mapping such buffers after the first is freed, and later ones then stay in the
        // heap when freed, unused (docs/benchmarks.md "bench-saves"). A fixed threshold maps and
        // returns every buffer from 128 KB up.
        //
        // glibc also gives each thread that meets another in malloc an arena of its own (up to 8 a core),
        // and what is freed in an arena serves only the threads using it: over an hour's soak, the
        // editor's allocated memory grew less with one arena, and the threads seldom allocate at once
        // (docs/benchmarks.md "bench-saves").
        #if os(Linux)
            mallopt(M_MMAP_THRESHOLD, 128 * 1024)
            mallopt(M_ARENA_MAX, 1)
        #endif
        let arguments = Array(CommandLine.arguments.dropFirst())
        // libcurl's load overlaps the parsing and the cache's read instead of following them.
        if willSend(arguments) { HTTPTransport.preloadLibrary() }
        do {
            if let server = editorServer(arguments) {
                try await openEditor(.live(serverFlag: server))
            } else if TodayCommand.isBareLine(arguments) {
                try await TodayCommand.show(.live(), json: false, line: true)
            } else {
                var command = try parseAsRoot()
                StartupTrace.mark("arguments parsed")
                if var command = command as? AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
            }
        } catch {
            await HTTPTransport.settleLibrary()
            exit(withError: error)
        }
        await HTTPTransport.settleLibrary()
    }

    /// Whether `arguments` name a command that talks to the server as they ask it
    /// (``SendingCommand/sends(_:)``, and no `--help`): the command is found by the names in each
    /// command's configuration, before the argument parser runs. A wrong guess costs a load of
    /// libcurl that is not used, or one that starts later (``withApp(_:machineOutput:readingProfileFirst:sending:_:)``).
    static func willSend(_ arguments: [String]) -> Bool {
        var command: any ParsableCommand.Type = FitIQCommand.self
        var words = arguments[...]
        while let word = words.popFirst() {
            if word.hasPrefix("-") {
                // The options before a command's name that take a value: GlobalOptions' and `--graphics`.
                if !word.contains("="), ["--server", "--api-key-file", "--account", "--graphics"].contains(word) {
                    _ = words.popFirst()
                }
                continue
            }
            let named = command.configuration.subcommands.first { subcommand in
                let configuration = subcommand.configuration
                return configuration.commandName == word || configuration.aliases.contains(word)
            }
            guard let named else { break }
            command = named
        }
        guard let sending = command as? any SendingCommand.Type else { return false }
        return sending.sends(arguments) && !arguments.contains { ["--help", "-h"].contains($0) }
    }

    /// The editor's server when `arguments` ask for the editor with at most `--server URL` (or
    /// `--server=URL`): `.some(nil)` for none, `.some(url)`; `nil` for anything else, which the argument
    /// parser reads (and words its errors: `--server` without a value, a value that is an option).
    static func editorServer(_ arguments: [String]) -> String?? {
        switch arguments.count {
        case 0: return .some(nil)
        case 1 where arguments[0].hasPrefix("--server="):
            let url = String(arguments[0].dropFirst("--server=".count))
            return url.isEmpty ? nil : url
        case 2 where arguments[0] == "--server" && !arguments[1].isEmpty && !arguments[1].hasPrefix("-"):
            return arguments[1]
        default: return nil
        }
    }

    /// With no command: the interactive editor (the sign-in screen when nobody is signed in).
    func run() async throws {
        try await Self.openEditor(
            .live(options: globals), plain: editorOptions.plain, noMouse: editorOptions.noMouse,
            graphics: graphics?.lowercased())
    }

    /// The editor (or plain mode) with these options. (Bare `fitiq-tui` comes here without the parser:
    /// an ``EditorOptions`` value exists only once parsed.)
    static func openEditor(_ config: AppConfig, plain: Bool = false, noMouse: Bool = false, graphics: String? = nil)
        async throws
    {
        try await withApp(config, readingProfileFirst: false) { app in
            StartupTrace.mark("server, session and API key resolved")
            let accounts = try app.requireAccounts()
            var environment = config.environment
            if let graphics { environment["FITIQ_GRAPHICS"] = graphics }
            try await TUILauncher.open(
                accounts: accounts, account: app.account,
                plain: PlainMode.isWanted(flag: plain, environment: environment),
                mouse: EditorOptions.wantsMouse(
                    flag: noMouse, environment: environment, config: app.setup.mouseInConfig),
                environment: environment)
        }
    }
}

/// `--plain` and `--no-mouse`, on the editor and on `demo` (which share them: `fitiq-tui --plain demo`
/// and `fitiq-tui demo --plain` both run the demo in plain mode).
struct EditorOptions: ParsableArguments {
    @Flag(
        help: """
            Plain mode: labelled lines and a fitiq> prompt reading one command per line, for screen readers, \
            dumb terminals, logs and scripts (also with FITIQ_PLAIN=1, and when TERM is unset or dumb). \
            FITIQ_TERM sets the terminal type instead of TERM; a type this machine does not know opens \
            as xterm-256color or xterm, with a notice.
            """)
    var plain = false

    @Flag(
        name: .customLong("no-mouse"),
        help: """
            Leave the mouse to the terminal (to select text without Shift); also with FITIQ_MOUSE=0 or \
            "mouse": false in the config file.
            """)
    var noMouse = false

    /// Whether the editor takes the mouse: unless `--no-mouse` (`flag`), `FITIQ_MOUSE=0` or the config
    /// file's `"mouse": false` (`config`) says not to.
    static func wantsMouse(flag noMouse: Bool, environment: [String: String], config: Bool?) -> Bool {
        !noMouse && environment["FITIQ_MOUSE"]?.trimmingWhitespace() != "0" && config != false
    }
}

/// A command that talks to the server, so that `main` starts loading libcurl before it parses the
/// arguments (``FitIQCommand/willSend(_:)``).
protocol SendingCommand: ParsableCommand {
    /// Whether the command sends with these arguments (all of the program's, unparsed).
    static func sends(_ arguments: [String]) -> Bool
}

extension SendingCommand {
    /// Unless `--no-sync` keeps the change on this machine.
    static func sends(_ arguments: [String]) -> Bool {
        !arguments.contains("--no-sync")
    }
}
