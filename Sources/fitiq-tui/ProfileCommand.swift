import ArgumentParser
import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or change your profile.", subcommands: [Show.self, Set.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show your profile (refreshed from the server when it answers, else from the cache).")

        @OptionGroup var globals: GlobalOptions
        @Flag(help: "Print JSON (keys as in docs/commands.md).") var json = false

        func run() async throws {
            try await withApp(globals, machineOutput: json) { app in
                let account = try app.requireAccount()
                var view = try await account.view()
                do {
                    view = try await withDeadline(seconds: 10) { try await account.refresh() }
                } catch let error as SessionError {
                    throw error
                } catch {
                    printError(
                        tr(
                            "Offline: showing the cached profile ({error}).",
                            ["error": ShownError(error).description]))
                }
                var profile = Output.profile(view)
                profile.goals = Output.GoalJSON.list(try await account.goals())
                print(json ? Output.json(profile) : Output.profileText(view))
            }
        }
    }

    struct Set: AsyncParsableCommand, SendingCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change name, bio, unit system or language (saved locally, then sent as one update).",
            discussion: "Fields not given keep their values. An empty --bio or --language clears it.")

        @OptionGroup var globals: GlobalOptions
        @Option(help: "Your name (1–100 characters).") var name: String?
        @Option(help: "About you (up to 500 characters; \"\" clears it).") var bio: String?
        @Option(
            help: "metric or imperial.", completion: .list(UnitSystem.allCases.map(\.rawValue)),
            transform: { text in
                // Typed here, with the rule's own message (exit 64) for anything else.
                try checkingRules { try ProfileRules.unitSystem(text) }
            })
        var units: UnitSystem?
        @Option(help: "Language code such as en, pt-BR or es-419 (\"\" clears it).") var language: String?
        @Flag(help: "Only save on this machine; `sync` sends it later (for scripts making many changes).")
        var noSync = false

        func validate() throws {
            guard name != nil || bio != nil || units != nil || language != nil else {
                throw ValidationError("Nothing to change: give at least one of --name, --bio, --units, --language.")
            }
            try checkingRules {
                if let name { _ = try ProfileRules.name(name) }
                if let bio { _ = try ProfileRules.bio(bio) }
                if let language { _ = try ProfileRules.languageCode(language) }
            }
        }

        func run() async throws {
            try await withApp(globals, sending: !noSync) { app in
                let account = try app.requireAccount()
                let applied = try await account.apply(
                    .metadata(name: name, bio: bio, unitSystem: units, languageCode: language), sending: !noSync)
                guard applied.outcome.saved else {
                    print(tr("Nothing changed."))
                    return
                }
                try await finishWrite(account, noSync: noSync)
            }
        }
    }
}
