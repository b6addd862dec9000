import FitIQTestSupport
import Foundation
import Testing

/// Several accounts on one machine, end to end against the development server: two accounts on one
/// server, each chosen per command (`--account`, `FITIQ_ACCOUNT`) or as the default (`accounts use`),
/// listed by `accounts`, signed out one at a time.
@Suite(.serialized) struct AccountsCLITests {
    static let ada = "ada@example.com"
    static let bob = "bob@example.com"

    /// The quantities of `type` the server holds for `email`.
    static func held(_ type: String, of email: String, on server: TestDevServer) async throws -> [Double] {
        let token = try await server.accessToken(email: email, password: CLIHarness.password)
        return try await server.quantities(of: type, token: token)
    }

    @Test func eachAccountsChangesReachItsOwnHistoryAndLogoutKeepsTheOther() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                #expect(try await cli.register(Self.ada).status == 0)
                #expect(try await cli.register(Self.bob).status == 0)

                let weight = try await cli.run(["--account", Self.ada, "weight", "set", "71.5", "kg"])
                #expect(weight.status == 0, "\(weight)")
                let height = try await cli.run(["--account", Self.bob, "height", "set", "152", "cm"])
                #expect(height.status == 0, "\(height)")
                #expect(try await Self.held("weight", of: Self.ada, on: server) == [71.5])
                #expect(try await Self.held("weight", of: Self.bob, on: server) == [])
                #expect(try await Self.held("height", of: Self.bob, on: server) == [152])
                #expect(try await Self.held("height", of: Self.ada, on: server) == [])

                // Both listed; the last signed in is the default.
                let rows = try await cli.jsonRows(["accounts", "--json"])
                #expect(rows.map { $0["email"] as? String } == [Self.ada, Self.bob], "\(rows)")
                #expect(rows.map { $0["default"] as? Bool } == [false, true], "\(rows)")
                #expect(rows.allSatisfy { $0["server"] as? String == server.url && $0["pendingChanges"] as? Int == 0 })
                #expect(rows.allSatisfy { $0["name"] as? String == "Jane Doe" && $0["lastSyncAt"] is String })
                let listed = try await cli.run(["accounts"])
                #expect(listed.status == 0 && listed.stdout.contains("* \(Self.bob)"), "\(listed)")

                let use = try await cli.run(["accounts", "use", Self.ada])
                #expect(use.status == 0 && use.stdout.contains(Self.ada), "\(use)")
                #expect(try await cli.jsonObject(["whoami", "--json"])["email"] as? String == Self.ada)
                #expect(try await cli.run(["accounts", "use", Self.bob]).status == 0)
                #expect(try await cli.jsonObject(["whoami", "--json"])["email"] as? String == Self.bob)
                var chosen = cli.runner
                chosen.environment["FITIQ_ACCOUNT"] = Self.ada
                #expect(try await chosen.jsonObject(["whoami", "--json"])["email"] as? String == Self.ada)
                // The flag wins over the variable.
                #expect(
                    try await chosen.jsonObject(["--account", Self.bob, "whoami", "--json"])["email"] as? String
                        == Self.bob)

                // Bob's change waits on this machine; signing Ada out leaves it, and it goes out later.
                #expect(try await cli.run(["--account", Self.bob, "weight", "set", "50", "--no-sync"]).status == 0)
                let logout = try await cli.run(["logout", Self.ada])
                #expect(logout.status == 0, "\(logout)")
                #expect(logout.stdout.contains("Signed out \(Self.ada)"), "\(logout)")
                // Bob stays the default: nothing to choose.
                #expect(!logout.stdout.contains("No account is the default now"), "\(logout)")
                let left = try await cli.jsonRows(["accounts", "--json"])
                #expect(left.map { $0["email"] as? String } == [Self.bob], "\(left)")
                #expect(left.first?["pendingChanges"] as? Int == 1, "\(left)")
                #expect(try await cli.run(["sync"]).status == 0)
                #expect(try await Self.held("weight", of: Self.bob, on: server) == [50])
                #expect(try await Self.held("weight", of: Self.ada, on: server) == [71.5])

                // The default signed out, another left: the default is not chosen silently.
                let login = try await cli.run(
                    ["login", "--server", server.url, "--email", Self.ada], input: CLIHarness.password + "\n")
                #expect(login.status == 0, "\(login)")
                let defaultOut = try await cli.run(["logout"])
                #expect(defaultOut.stdout.contains("Signed out \(Self.ada)"), "\(defaultOut)")
                #expect(
                    defaultOut.stdout.contains(
                        "`fitiq-tui accounts use EMAIL` makes one of these the default: \(Self.bob)."),
                    "\(defaultOut)")
                let nobody = try await cli.run(["whoami"])
                #expect(nobody.status == 3, "\(nobody)")
                #expect(try await cli.jsonRows(["accounts", "--json"]).map { $0["default"] as? Bool } == [false])
            }
        }
    }

    @Test func anUnknownAccountIsRefusedWithTheAccountsThereAre() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                #expect(try await cli.register(Self.ada).status == 0)
                #expect(try await cli.register(Self.bob).status == 0)
                for arguments in [["--account", "cy@example.com", "whoami"], ["logout", "cy@example.com"]] {
                    let refused = try await cli.run(arguments)
                    #expect(refused.status == 64, "\(refused)")
                    #expect(refused.stderr.contains("cy@example.com"), "\(refused)")
                    #expect(
                        refused.stderr.contains(Self.ada) && refused.stderr.contains(Self.bob), "\(refused)")
                }
                var chosen = cli.runner
                chosen.environment["FITIQ_ACCOUNT"] = "cy@example.com"
                let refused = try await chosen.run(["weight", "set", "70"])
                #expect(refused.status == 64 && refused.stderr.contains(Self.bob), "\(refused)")
                // Nothing was signed out or written.
                #expect(try await cli.jsonRows(["accounts", "--json"]).count == 2)
                #expect(try await Self.held("weight", of: Self.bob, on: server) == [])
            }
        }
    }

    /// The layout of today's cache is the layout of several accounts: a cache written by the commands of
    /// one account (no `--account`, no `accounts`), with a change pending, is that account, the default,
    /// and its change is sent once.
    @Test func aCacheOfOneAccountWithAPendingChangeIsTheDefaultAccount() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["weight", "set", "80", "--no-sync"]).status == 0)
                let current = cli.folder.appendingPathComponent("state/fitiq/current.json")
                let before = try Data(contentsOf: current)

                let rows = try await cli.jsonRows(["accounts", "--json"])
                #expect(rows.count == 1, "\(rows)")
                #expect(rows.first?["email"] as? String == "jane@example.com")
                #expect(rows.first?["default"] as? Bool == true)
                #expect(rows.first?["pendingChanges"] as? Int == 1)
                // Listing changed nothing on disk.
                #expect(try Data(contentsOf: current) == before)

                #expect(try await cli.run(["sync"]).status == 0)
                #expect(try await cli.run(["sync"]).status == 0)
                #expect(try await Self.held("weight", of: "jane@example.com", on: server) == [80])
                #expect(try await cli.jsonRows(["accounts", "--json"]).first?["pendingChanges"] as? Int == 0)
            }
        }
    }
}

extension AccountsCLITests {
    /// The files the build before several accounts wrote (Fixtures/cache-0.6.0: a bio, a weight and
    /// steps queued offline), in place of a fresh registration's on this run's server: the account is
    /// the default one, and each change reaches the server once.
    @Test func aCacheWrittenBeforeSeveralAccountsIsTheDefaultAndSendsEachChangeOnce() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                try OldCache.install(in: cli.folder, server: server.url)

                let rows = try await cli.jsonRows(["accounts", "--json"])
                #expect(rows.count == 1, "\(rows)")
                #expect(rows.first?["email"] as? String == "jane@example.com")
                #expect(rows.first?["default"] as? Bool == true)
                #expect(rows.first?["pendingChanges"] as? Int == 3)
                let whoami = try await cli.run(["whoami"])
                #expect(whoami.status == 0 && whoami.stdout.contains("jane@example.com"), "\(whoami)")

                let sync = try await cli.run(["sync", "--wait"])
                #expect(sync.status == 0, "\(sync)")
                #expect(try await cli.run(["sync", "--wait"]).status == 0)
                #expect(try await Self.held("weight", of: "jane@example.com", on: server) == [80])
                #expect(try await Self.held("steps", of: "jane@example.com", on: server) == [8_000])
                let token = try await server.accessToken(email: "jane@example.com", password: CLIHarness.password)
                let profile = try await server.api("GET", "users/me", token: token)["profile"]
                #expect(profile?["bio"]?.string == "Written by 0.6.0")
                #expect(try await cli.jsonRows(["accounts", "--json"]).first?["pendingChanges"] as? Int == 0)
            }
        }
    }
}

/// Fixtures/cache-0.6.0, put in place of the account a registration on `server` made under `home`:
/// the fixture's server address, user id, profile id, tokens and API key become this run's.
private enum OldCache {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cache-0.6.0", isDirectory: true)
    static let server = "http://127.0.0.1:35347"
    static let userId = "ce0b4c5a-7ff5-40ab-9b02-243068c1a4ab"
    static let profileId = "9cc282f2-7e07-4a37-b37e-1db059fea508"

    static func install(in home: URL, server url: String) throws {
        let files = FileManager.default
        func onlyFolder(in folder: URL) throws -> URL {
            let servers = try files.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            guard servers.count == 1,
                let users = try? files.contentsOfDirectory(at: servers[0], includingPropertiesForKeys: nil),
                users.count == 1
            else { throw Failure(description: "not one account under \(folder.path)") }
            return users[0]
        }
        let data = try onlyFolder(in: home.appendingPathComponent("data/fitiq/accounts"))
        let state = try onlyFolder(in: home.appendingPathComponent("state/fitiq/accounts"))
        func json(_ file: URL) throws -> Any { try JSONSerialization.jsonObject(with: Data(contentsOf: file)) }
        let session = try json(state.appendingPathComponent("session.json"))
        let account = try json(data.appendingPathComponent("account.json"))
        guard let session = (session as? [String: Any])?["session"] as? [String: Any],
            let tokens = session["tokens"] as? [String: Any], let access = tokens["accessToken"] as? String,
            let refresh = tokens["refreshToken"] as? String, let apiKey = session["apiKey"] as? String,
            let identity = (((account as? [String: Any])?["state"] as? [String: Any])?["profile"] as? [String: Any])?[
                "identity"] as? [String: Any],
            let userId = identity["userId"] as? String, let profileId = identity["profileId"] as? String
        else { throw Failure(description: "the registration's files are not as expected") }
        let replacements = [
            (Self.server, url), (Self.userId, userId), (Self.profileId, profileId), ("ACCESS-TOKEN", access),
            ("REFRESH-TOKEN", refresh), ("API-KEY", apiKey),
        ]
        func copy(_ name: String, to target: URL) throws {
            var text = try String(contentsOf: fixture.appendingPathComponent(name), encoding: .utf8)
            for (old, new) in replacements { text = text.replacingOccurrences(of: old, with: new) }
            try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: target)
        }
        try files.removeItem(at: data)
        for name in try files.contentsOfDirectory(atPath: fixture.appendingPathComponent("data/history").path) {
            try copy("data/history/\(name)", to: data.appendingPathComponent("history/\(name)"))
        }
        try copy("data/account.json", to: data.appendingPathComponent("account.json"))
        try copy("state/session.json", to: state.appendingPathComponent("session.json"))
        try copy("state/current.json", to: home.appendingPathComponent("state/fitiq/current.json"))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// `demo` signs a second account in beside the demo account: `--account` (or `FITIQ_ACCOUNT`) opens
/// it, and plain mode's `account EMAIL` switches between them.
struct DemoAccountsCLITests {
    @Test func theDemoOpensTheAccountNamedAndPlainModeSwitches() async throws {
        try await CLIHarness.with { cli in
            let run = try await cli.run(
                ["--plain", "demo", "--account", "family@fitiq.dev"],
                input: "show\nset name Sammy\naccount demo@fitiq.dev\nshow\nquit\n")
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains("You are signed in as family@fitiq.dev."), "\(run)")
            #expect(run.stdout.contains("Sam Demo"), "\(run)")
            #expect(
                run.stdout.contains("Now on demo@fitiq.dev's profile; the edits not saved were dropped."), "\(run)")
            #expect(run.stdout.contains("You are signed in as demo@fitiq.dev."), "\(run)")
            #expect(run.stdout.contains("Alex Demo"), "\(run)")
            // The draft for Sam was not carried over: nothing is left to save when quitting.
            #expect(!run.stdout.contains("Sammy once you save (not saved yet)"), "\(run)")

            var chosen = cli.runner
            chosen.environment["FITIQ_ACCOUNT"] = "nobody@fitiq.dev"
            let refused = try await chosen.run(["--plain", "demo"], input: "quit\n")
            #expect(refused.status == 64, "\(refused)")
            #expect(
                refused.stderr.contains("demo@fitiq.dev") && refused.stderr.contains("family@fitiq.dev"), "\(refused)")
        }
    }
}
