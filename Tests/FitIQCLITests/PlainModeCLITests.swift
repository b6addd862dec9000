import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

/// Plain mode (`--plain`, `TERM` unset or `dumb`, `FITIQ_PLAIN=1`) read from a pipe, against the development server.
struct PlainModeCLITests {
    @Test func aNameSetAndSavedThroughAPipeReachesTheServer() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in

                let run = try await cli.run(["--plain"], input: "set name Plain Person\nsave\nquit\n")

                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("fitiq> "))
                #expect(run.stdout.contains("Name will be Plain Person once you save."), "\(run)")
                #expect(run.stdout.contains("Synced: the server has every change."), "\(run)")
                #expect(!run.stdout.contains("\u{1B}"), "plain mode writes no escape sequence")
                let shown = try await cli.jsonObject(["profile", "show", "--json"])
                #expect(shown["name"] as? String == "Plain Person")
                #expect(try await Self.nameOnTheServer(cli) == "Plain Person")
            }
        }
    }

    /// The profile's name as the server has it, read by a second machine (fresh folders) signing in.
    static func nameOnTheServer(_ cli: CLIHarness) async throws -> String? {
        guard let other = try await cli.otherMachine() else { return nil }
        let shown = try CLIHarness.json(try await other.run(["profile", "show", "--json"])) as? [String: Any]
        return shown?["name"] as? String
    }

    @Test func aBadHeightGivesTheRuleAndSendsNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var dumb = cli.runner
                dumb.environment["TERM"] = "dumb"  // chosen without --plain

                let run = try await dumb.run([], input: "set height 5'13\"\nset height abc\nsave\nquit\n")

                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("Height inches after feet must be below 12 (13 given)"), "\(run)")
                #expect(run.stdout.contains("Height must be a number with an optional unit"), "\(run)")
                #expect(run.stdout.contains("There is nothing to save."), "\(run)")
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
                let history = try #require(
                    try CLIHarness.json(try await cli.run(["height", "history", "--json"])) as? [Any])
                #expect(history.isEmpty)
            }
        }
    }

    /// `ssh host fitiq-tui < script` has no TERM at all: plain mode, not an error about the terminal.
    @Test func withNoTerminalTypePlainModeStartsWithoutTheFlag() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(cli.runner.environment["TERM"] == nil)

                let run = try await cli.run([], input: "show\nquit\n")

                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("fitiq> "), "\(run)")
                #expect(
                    run.stdout.split(separator: "\n").contains { $0.hasPrefix("Name ") && $0.hasSuffix(" Jane Doe") })
                #expect(run.stderr.isEmpty, "\(run)")
            }
        }
    }

    @Test func weightAndBodyFatAreSetSavedAndListedWithTheEditorsFields() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in

                let run = try await cli.run(
                    ["--plain"],
                    input: "help\nset weight 160 lb\nset body-fat 80\nset body-fat 18.5 %\nset bmi 22\nsave\n"
                        + "history weight\nhistory body-fat\nhistory naps\nquit\n")

                #expect(run.status == 0, "\(run)")
                // The help lists every field of the editor's table.
                for field in ["name", "bio", "units", "language", "height", "weight", "body-fat", "bmi"] {
                    #expect(run.stdout.contains("  \(field): "), "\(field) in \(run.stdout)")
                }
                #expect(run.stdout.contains("Weight will be 72.6 kg once you save."), "\(run)")
                #expect(run.stdout.contains("Body fat must be between 1 and 75 %"), "\(run)")
                #expect(run.stdout.contains("Body fat will be 18.5 % once you save."), "\(run)")
                #expect(run.stdout.contains("BMI is derived from your latest weight"), "\(run)")
                #expect(run.stdout.contains("Synced: the server has every change."), "\(run)")
                #expect(run.stdout.contains(": 72.6 kg, manual, on the server."), "\(run)")
                #expect(run.stdout.contains(": 18.5 %, manual, on the server."), "\(run)")
                #expect(
                    run.stdout.contains(
                        "Say which history: history height|weight|body-fat|steps|distance|active-minutes|calories-out|water|calories-in|protein|carbs|fat|sleep|resting-heart-rate|mood."
                    ), "\(run)")

                let other = try #require(try await cli.otherMachine())
                let weights = try await other.jsonRows(["weight", "history", "--json"])
                #expect(weights.map { $0["weightKg"] as? Double } == [72.57])
            }
        }
    }

    @Test func undoTakesBackTheLastSavedChangeAsTheEditorsUDoes() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let run = try await cli.run(
                    ["--plain"], input: "set weight 72.4\nsave\nundo\nundo\nhistory weight\nquit\n")
                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("Undid the weight 72.4 kg logged on"), "\(run)")
                #expect(run.stdout.contains("Nothing to undo."), "\(run)")
                #expect(run.stdout.contains("There is no weight history yet."), "\(run)")
                // It was sent before it was undone: the server's entry is deleted too.
                let other = try #require(try await cli.otherMachine())
                #expect(try await other.jsonRows(["weight", "history", "--json"]).isEmpty)
            }
        }
    }

    @Test func trendSaysWhatTheChartShowsThenTheGoalAndTheTableByWeek() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let today = CalendarDate(containing: Date(), in: .utc)
                for (daysAgo, kilograms) in [(20, "82.0"), (13, "81.2"), (12, "81.0"), (6, "80.1"), (1, "79.5")] {
                    let day = today.adding(days: -daysAgo).description
                    #expect(try await cli.run(["weight", "set", kilograms, "--date", day, "--no-sync"]).status == 0)
                }
                let by = today.adding(days: 60)

                let run = try await cli.run(
                    ["--plain"],
                    input: "trend weight 4w --by week\ntrend height all\ntrend weight 5x\ngoal weight 78 \(by)\n"
                        + "goal\ngoal bmi 22\ngoal weight\ngoal weight clear\ngoal\nquit\n")

                #expect(run.status == 0, "\(run)")
                let latestDay = today.adding(days: -1)
                #expect(run.stdout.contains("Weight over the last 4 weeks:\nLatest 79.5 kg on \(latestDay)."), "\(run)")
                // T ← T + (1 − 0.9^Δd)(W − T) over 7, 1, 6 and 5 days: 82 → 81.583 → 81.524 → 80.857 → 80.301;
                // the least-squares slope of those over days 0, 7, 8, 14, 19 is −0.0916 kg a day.
                #expect(run.stdout.contains("Trend 80.3 kg, −0.6 kg a week over the last 4 weeks."), "\(run)")
                #expect(run.stdout.contains("Lowest 79.5 kg on \(latestDay); highest 82.0 kg on"), "\(run)")
                #expect(run.stdout.contains("week of     mean kg   low  high  readings  trend  change"), "\(run)")
                #expect(run.stdout.contains("No height entries over the whole history."), "\(run)")
                #expect(
                    run.stdout.contains(
                        "Say which trend: trend height|weight|body-fat|steps|distance|active-minutes|calories-out|water|calories-in|protein|carbs|fat|sleep|resting-heart-rate|mood|bmi 4w|3m|1y|all [--by week|month] (5x is neither)."
                    )
                )
                #expect(run.stdout.contains("Goal set: 78.0 kg by \(by). It is kept on this machine"), "\(run)")
                let standing = "Goal 78.0 kg by \(by): the trend, 80.3 kg, is 2.3 kg above it."
                // Said by `goal` and by `goal weight`.
                #expect(run.stdout.components(separatedBy: standing).count == 3, "\(run)")
                #expect(
                    run.stdout.contains(
                        "Not set: A goal can be set for weight, body-fat, steps, distance, active-minutes, calories-out, water, calories-in, protein, carbs, fat, sleep, resting-heart-rate, not bmi."
                    ), "\(run)")
                #expect(run.stdout.contains("The weight goal is cleared."), "\(run)")
                #expect(run.stdout.contains("No goals are set."), "\(run)")
            }
        }
    }

    @Test func unsavedEditsAtTheEndOfInputAreNotSavedAndItSaysSo() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                var plain = cli.runner
                plain.environment["FITIQ_PLAIN"] = "1"

                let run = try await plain.run([], input: "set bio Never saved\n")

                #expect(run.stdout.contains("End of input: 1 change was not saved."), "\(run)")
                let shown = try await cli.jsonObject(["profile", "show", "--json"])
                #expect(shown["bio"] as? String != "Never saved")
            }
        }
    }

    @Test func signingInWorksInPlainModeWithThePasswordFromThePipe() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["logout"]).status == 0)

                let run = try await cli.run(
                    ["--plain", "--server", server.url], input: "jane@example.com\n\(CLIHarness.password)\nshow\nquit\n"
                )

                #expect(run.stdout.contains("Signed in as jane@example.com."), "\(run)")
                #expect(run.stdout.contains("Name            Jane Doe"), "\(run)")
                #expect(!run.stdout.contains(CLIHarness.password), "the password is never written")
            }
        }
    }
}

/// `fitiq-tui --server URL` opens the editor without the argument parser; what it does not read, the
/// parser does, with its messages.
struct EditorArgumentsCLITests {
    @Test func theEditorsServerIsReadInEitherFormAndAnythingElseGoesToTheParser() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["logout"]).status == 0)
                for arguments in [["--server", server.url], ["--server=\(server.url)"]] {
                    // No terminal type: the editor opens in plain mode, signing in to the server named.
                    let run = try await cli.run(arguments, input: "jane@example.com\n\(CLIHarness.password)\nquit\n")
                    #expect(run.stdout.contains("Signed in as jane@example.com."), "\(arguments): \(run)")
                    #expect(try await cli.run(["logout"]).status == 0)
                }
                for (arguments, status) in [(["--server"], 64), (["--server", "--plain"], 64), (["--server="], 1)] {
                    let run = try await cli.run(arguments, input: "")
                    #expect(run.status == status, "\(arguments): \(run)")
                    #expect(run.stderr.contains("--server"), "\(arguments): \(run)")
                }
            }
        }
    }
}

/// `demo` in plain mode: a script or a screen reader can try the program too.
struct PlainDemoCLITests {
    @Test(arguments: [["--plain", "demo"], ["demo", "--plain"]])
    func theDemoRunsInPlainModeFromAPipe(arguments: [String]) async throws {
        let run = try await CLIHarness.with { cli in try await cli.run(arguments, input: "show\nquit\n") }
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("You are signed in as demo@fitiq.dev."), "\(run)")
        #expect(run.stdout.contains("Alex Demo"), "\(run)")
        #expect(!run.stderr.contains("needs a terminal"), "\(run)")
    }
}

/// Plain mode and the commands speak the profile's language (unless FITIQ_LANG), whatever the locale.
struct LanguageCLITests {
    @Test func plainModeAnswersInTheProfilesLanguageAndSwitchesWhenANewOneIsSaved() async throws {
        try await TestDevServer.with() { server in
            try await withCLI(server) { cli in
                #expect(try await cli.register().status == 0)
                #expect(try await cli.run(["profile", "set", "--language", "de"]).status == 0)
                var runner = cli.runner
                runner.environment["LANG"] = "C"

                let run = try await runner.run(
                    ["--plain"], input: "status\nset language fr\nsave\nstatus\nset weight 72.4\nquit\nn\n")

                #expect(run.status == 0, "\(run)")
                #expect(run.stdout.contains("Du bist als "), "German from the profile: \(run)")
                #expect(run.stdout.contains("Sprache: fr, sobald du speicherst."), "\(run)")
                #expect(run.stdout.contains("Tu es connecté en tant que "), "French once saved: \(run)")
                #expect(run.stdout.contains("Poids : 72,4 kg quand tu enregistreras."), "\(run)")
                #expect(run.stdout.contains("fitiq> "), "the prompt is a command word")
            }
        }
    }

    @Test func theCachesAndTheHealthImportsErrorsSpeakTheLanguage() async throws {
        try await TestDevServer.with() { server in
            try await withCLI(server, registered: true) { cli in
                var runner = cli.runner
                runner.environment["FITIQ_LANG"] = "de"
                // A file that is no Health export
                let text = cli.folder.appendingPathComponent("notes.txt")
                try Data("no export here\n".utf8).write(to: text)
                let imported = try await runner.run(["import-health", text.path])
                #expect(imported.status != 0, "\(imported)")
                #expect(imported.stderr.contains("ist keine Datei, die fitiq-tui importiert"), "\(imported)")

                // An account cache written by a newer fitiq-tui
                let files = FileManager.default.enumerator(
                    at: cli.folder.appendingPathComponent("data"), includingPropertiesForKeys: nil)
                let file = try #require(
                    files?.compactMap { $0 as? URL }.first { $0.lastPathComponent == "account.json" })
                var root = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
                root["schemaVersion"] = 999
                try JSONSerialization.data(withJSONObject: root).write(to: file)
                let shown = try await runner.run(["profile", "show"])
                #expect(shown.status != 0, "\(shown)")
                #expect(shown.stderr.contains("von einem neueren fitiq-tui geschrieben (Schemaversion 999"), "\(shown)")
            }
        }
    }

    @Test func commandsSpeakTheLanguageButMachineOutputStaysEnglish() async throws {
        try await TestDevServer.with() { server in
            try await withCLI(server) { cli in
                #expect(try await cli.register().status == 0)
                var runner = cli.runner
                runner.environment["FITIQ_LANG"] = "es"

                let refused = try await runner.run(["goal", "set", "weight", "1000"])
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("Peso: el valor debe estar entre 2 y 635\u{A0}kg"), "\(refused)")
                let shown = try await runner.run(["profile", "show"])
                #expect(shown.stdout.contains("Nombre"), "\(shown)")
                let json = try await runner.jsonObject(["status", "--json"])
                #expect(json["signedIn"] as? Bool == true)
            }
        }
    }
}
