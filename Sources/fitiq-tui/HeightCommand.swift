import ArgumentParser
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct HeightCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "height", abstract: "Set your height or read its history.",
        subcommands: [Set.self, History.self, Delete.self, Correct.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set your height; each change is also logged in your height history.",
            discussion: """
                VALUE may be 180.5, 180.5 cm, 1.8 m, 5'11", 5 ft 11 in or 71 in. A bare number is in your \
                unit system (cm for metric, inches for imperial).
                With --date, a past measurement: logged on that day, and the current height only if newest.
                """)

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The height, e.g. 180.5 cm or 5'11\" (several words are joined: 5 ft 11 in).")
        var words: [String]

        var value: String { words.joined(separator: " ") }
        @Option(help: "The day of a past measurement, YYYY-MM-DD.") var date: String?
        @Flag(help: "Only save on this machine; `sync` sends it later (for scripts making many changes).")
        var noSync = false

        func validate() throws {
            guard !words.isEmpty else { throw ValidationError("Give a height, e.g. 180.5 cm or 5'11\".") }
            if let date, CalendarDate(parsing: date) == nil || date.count != 10 {
                throw ValidationError("Date must be a real date written YYYY-MM-DD.")
            }
            // The height itself is parsed once, in the account's units, when the profile has been read.
        }

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                guard let profile = try await account.overview().profile else { throw AccountError.profileNotLoaded }
                let units = profile.preferredUnitSystem
                let centimetres = try Height.parse(value, unitSystem: units)
                if let date, let day = CalendarDate(parsing: date) {
                    let current = try await account.logHeight(centimetres, on: day)
                    print(
                        "Logged \(Height.format(centimetres, unitSystem: units)) on \(day)"
                            + (current ? "; it is your current height." : " (an earlier measurement)."))
                } else {
                    guard try await account.updateHeight(centimetres: centimetres) else {
                        print(
                            "Height unchanged (\(profile.heightCm.map { Height.format($0, unitSystem: units) } ?? ""))."
                        )
                        return
                    }
                    let height = try await account.overview().profile?.heightCm ?? 0
                    print("Height set to \(Height.format(height, unitSystem: units)).")
                }
                try await finishWrite(account, noSync: noSync)
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "List your height history, newest first.",
            discussion:
                "--json prints [{id, loggedAt, heightCm, source, synced}]; --csv prints "
                + "id,logged_at,height_cm,source,synced. The id names an entry for `height delete` and `height correct`."
        )

        @OptionGroup var globals: GlobalOptions
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "Print CSV.") var csv = false
        @Option(help: "Only entries on or after this day, YYYY-MM-DD.") var since: String?

        func validate() throws {
            if json && csv { throw ValidationError("Choose one of --json and --csv.") }
            if let since, CalendarDate(parsing: since) == nil || since.count != 10 {
                throw ValidationError("--since must be a real date written YYYY-MM-DD.")
            }
        }

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                do {
                    _ = try await withDeadline(seconds: 10) { try await account.history(of: .height, refresh: true) }
                } catch let error as SessionError {
                    throw error
                } catch {
                    printError(
                        "Offline: showing the cached history (\(TextSanitizer.sanitize(String(describing: error)))).")
                }
                let entries = try await account.history(
                    of: .height, refresh: false, since: since.flatMap(CalendarDate.init))
                if json {
                    print(Output.json(Output.historyJSON(entries)))
                } else if csv {
                    print(Output.historyCSV(entries))
                } else {
                    let units = try await account.overview().profile?.preferredUnitSystem ?? .metric
                    print(Output.historyText(entries, units: units, timeZone: .system))
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Remove a height entry (a mistyped one).",
            discussion: """
                ID is the entry's id from `height history --json`. One not sent yet just leaves the outbox; \
                one on the server is deleted there at the next sync. When it was the latest entry, your \
                current height becomes the latest one left.
                """)

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The entry's id.") var id: String
        @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                let units = try await account.overview().profile?.preferredUnitSystem ?? .metric
                let removed = try await account.deleteEntry(of: .height, id: id)
                let day = CalendarDate(containing: removed.loggedAt, in: .system)
                print("Removed \(Height.format(removed.quantity, unitSystem: units)) of \(day).")
                try await finishWrite(account, noSync: noSync)
            }
        }
    }

    struct Correct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "correct", abstract: "Replace the value of a height entry, keeping when it was logged.",
            discussion: """
                ID is the entry's id from `height history --json`; VALUE is a height as for `height set`. \
                Sent as one change: the old entry deleted, the new one posted.
                """)

        @OptionGroup var globals: GlobalOptions
        @Argument(help: "The entry's id.") var id: String
        @Argument(parsing: .remaining, help: "The right height, e.g. 180.5, 180.5 cm or 5'11\".") var words: [String]
        @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

        func run() async throws {
            try await withApp(globals) { app in
                let account = try app.requireAccount()
                let units = try await account.overview().profile?.preferredUnitSystem ?? .metric
                let centimetres = try Height.parse(words.joined(separator: " "), unitSystem: units)
                let (before, after) = try await account.correctEntry(of: .height, id: id, to: centimetres)
                let day = CalendarDate(containing: before.loggedAt, in: .system)
                print(
                    "Corrected \(day): \(Height.format(before.quantity, unitSystem: units)) → "
                        + "\(Height.format(after.quantity, unitSystem: units)).")
                try await finishWrite(account, noSync: noSync)
            }
        }
    }
}
