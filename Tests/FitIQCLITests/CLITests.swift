import FitIQCore
import FitIQTestSupport
import Foundation
import Testing

@testable import FitIQCache

/// The built `fitiq-tui` binary, run as a process against the development server.
@Suite(.timeLimit(.minutes(3)))
struct CLITests {
    @Test func aFullSessionFromTheCommandLine() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                let registered = try await cli.register()
                #expect(registered.status == 0, "\(registered)")
                #expect(registered.stdout.contains("Signed in as jane@example.com"))

                // Global options before or after the subcommand.
                let before = try await cli.run(["--server", server.url, "whoami", "--json"])
                let after = try await cli.run(["whoami", "--json", "--server", server.url])
                #expect(before.status == 0 && after.status == 0)
                let who = try #require(try CLIHarness.json(before) as? [String: Any])
                #expect(Set(who.keys) == ["server", "email", "userId"])
                #expect(who["email"] as? String == "jane@example.com")
                #expect(after.stdout == before.stdout)

                let set = try await cli.run([
                    "profile", "set", "--bio", "Trail runner", "--units", "imperial", "--language", "PT-br",
                ])
                #expect(set.status == 0, "\(set)")
                #expect(set.stdout.contains("Saved and synced."))
                let height = try await cli.run(["height", "set", "5'11\""])
                #expect(height.status == 0, "\(height)")
                #expect(height.stdout.contains("5 ft 11 in"))
                let past = try await cli.run(["height", "set", "179", "cm", "--date", "2026-06-01"])
                #expect(past.status == 0, "\(past)")
                // The profile speaks Brazilian Portuguese now: so do the commands (JSON and CSV below do not).
                #expect(past.stdout.contains("registrado em 2026-06-01 (uma medição anterior)"), "\(past)")

                let shown = try await cli.run(["profile", "show", "--json"])
                let profile = try #require(try CLIHarness.json(shown) as? [String: Any])
                #expect(
                    Set(profile.keys) == [
                        "name", "bio", "preferredUnitSystem", "languageCode", "dateOfBirth", "heightCm",
                        "biologicalSex",
                        "weightKg", "weightLoggedAt", "bodyFatPercent", "bodyFatLoggedAt", "bmi", "goals",
                        "biologicalSexSource", "pendingChanges", "rejectedChanges",
                    ])
                #expect(profile["languageCode"] as? String == "pt-BR")
                #expect(profile["dateOfBirth"] as? String == "1983-07-20")
                #expect(abs((profile["heightCm"] as? Double ?? 0) - 180.34) < 0.01)
                #expect(profile["biologicalSex"] is NSNull)
                #expect(profile["pendingChanges"] as? Int == 0)

                let history = try await cli.run(["height", "history", "--json"])
                let entries = try #require(try CLIHarness.json(history) as? [[String: Any]])
                #expect(entries.count == 2)
                #expect(
                    Set(entries.first?.keys ?? [:].keys) == ["id", "loggedAt", "heightCm", "source", "synced", "notes"])
                #expect(entries.first?["synced"] as? Bool == true)
                let csv = try await cli.run(["height", "history", "--csv"])
                #expect(csv.stdout.hasPrefix("id,logged_at,height_cm,source,synced,notes\n"))
                #expect(csv.stdout.contains(",180.34,manual,true"))

                let status = try await cli.jsonObject(["status", "--json"])
                #expect(
                    Set(status.keys) == [
                        "server", "email", "signedIn", "lastSyncAt", "pendingChanges", "pending", "rejected",
                        "conflicts",
                    ])
                #expect(status["signedIn"] as? Bool == true)
            }
        }
    }

    /// Without the XDG variables, the folders are under `$HOME` (`~/.local/state`, `~/.local/share`), as
    /// for every other program, not under the home the password database names.
    @Test func withoutXDGVariablesTheFilesLiveUnderHOME() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                let home = cli.folder.appendingPathComponent("home")
                for variable in ["XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"] {
                    cli.runner.environment[variable] = nil
                }
                cli.runner.environment["HOME"] = home.path

                let registered = try await cli.register()

                #expect(registered.status == 0, "\(registered)")
                let state = home.appendingPathComponent(".local/state/fitiq/current.json")
                #expect(FileManager.default.fileExists(atPath: state.path))
                let accounts = home.appendingPathComponent(".local/share/fitiq/accounts")
                #expect(!(try FileManager.default.contentsOfDirectory(atPath: accounts.path)).isEmpty)
                let whoami = try await cli.run(["whoami"])
                #expect(whoami.status == 0 && whoami.stdout.contains("jane@example.com"), "\(whoami)")
            }
        }
    }

    @Test func exitCodesTellScriptsWhatHappened() async throws {
        try await CLIHarness.with { cli in
            let notSignedIn = try await cli.run(["status"])
            #expect(notSignedIn.status == 3)
            #expect(notSignedIn.stderr.contains("not signed in"))
            let noServer = try await cli.run(["login", "--email", "a@b.c"], input: "pw\n")
            #expect(noServer.status == 1)
            #expect(noServer.stderr.contains("No server is configured"))
            let server = try await TestDevServer.start()
            cli.server = server.url
            _ = try await cli.register()
            let longName = try await cli.run(["profile", "set", "--name", String(repeating: "n", count: 101)])
            #expect(longName.status == 64)
            #expect(longName.stderr.contains("Name must be at most 100 characters"))
            let badHeight = try await cli.run(["height", "set", "5'13\""])
            #expect(badHeight.status == 64)
            #expect(badHeight.stderr.contains("Height"))
            let badLanguage = try await cli.run(["profile", "set", "--language", "xx-invalid-!!"])
            #expect(badLanguage.status == 64)
            #expect(badLanguage.stderr.contains("Language must be 2–3 letters"))
            let insecure = try await cli.run(["status", "--server", "http://fitiq.example"])
            #expect(insecure.status == 64)
            #expect(insecure.stderr.contains("--allow-insecure-http"))
            // The server goes away: an edit is kept, sync --wait and logout say it is pending (exit 4).
            await server.stop()
            let offline = try await cli.run(["profile", "set", "--bio", "written offline"])
            #expect(offline.status == 0)
            #expect(offline.stdout.contains("pending") || offline.stdout.contains("not sent yet"))
            // Each sync tries once at once. After six tries the next waits 16 s or more: longer than
            // reading the status below takes on a loaded machine, so it is seen waiting.
            for _ in 0..<4 { _ = try await cli.run(["sync"]) }
            let wait = try await cli.run(["sync", "--wait", "--timeout", "2"])
            #expect(wait.status == 4)
            #expect(wait.stdout.contains("profile: bio"))
            // Status says what holds the change back, and what to do about it.
            let held = try await cli.run(["status"])
            #expect(held.stdout.contains("pending:  profile: bio (last try: "), "\(held)")
            #expect(held.stdout.contains("a sync now tries at once"), "\(held)")
            let heldJSON = try await cli.jsonObject(["status", "--json"])
            let waiting = try #require((heldJSON["pending"] as? [[String: Any]])?.first)
            #expect(waiting["change"] as? String == "profile: bio")
            #expect(waiting["hold"] as? String == "backoff")
            #expect((waiting["nextTryAt"] as? String).flatMap(RFC3339.parse) != nil)
            // In German the reason of the English try is German; --json stays English.
            var german = cli.runner
            german.environment["FITIQ_LANG"] = "de"
            let heldGerman = try await german.run(["status"])
            #expect(heldGerman.stdout.contains("Der Server war nicht erreichbar: "), "\(heldGerman)")
            let germanJSON = try await german.jsonObject(["status", "--json"])
            let waitingGerman = try #require((germanJSON["pending"] as? [[String: Any]])?.first)
            #expect(waitingGerman["change"] as? String == "profile: bio")
            #expect((waitingGerman["lastError"] as? String)?.hasPrefix("The server could not be reached: ") == true)
            let logout = try await cli.run(["logout"])
            #expect(logout.status == 4)
            #expect(logout.stderr.contains("profile: bio"))
            let discard = try await cli.run(["logout", "--discard-pending"])
            #expect(discard.status == 0)
            #expect(try await cli.run(["whoami"]).status == 3)
        }
    }

    @Test func aClaimLeftByAProcessThatIsGoneDoesNotHoldTheSync() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                #expect(try await cli.run(["height", "set", "181 cm", "--no-sync"]).status == 0)
                // Another process claims the PATCH and the POST for 30 s, as a sync does before sending.
                let holder = try ChildProcess(["/bin/sleep", "60"], output: .discarded)
                let identity = try #require(LocalProcesses.identity(of: holder.pid))
                try claimEverything(in: cli.folder, holder: identity, for: 30)
                // While it runs, its claims hold: nothing is sent.
                #expect(try await cli.run(["sync", "--wait", "--timeout", "2"]).status != 0)
                holder.signal(SIGKILL)
                _ = await holder.exit()
                // Once it is gone, they are void at once, well before the 30 s.
                let synced = try await cli.run(["sync", "--wait", "--timeout", "10"])
                #expect(synced.status == 0, "\(synced)")
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
                let history = try #require(
                    try CLIHarness.json(try await cli.run(["height", "history", "--json"])) as? [Any])
                #expect(history.count == 1, "\(history)")
            }
        }
    }

    /// Writes a claim by `holder`, valid for `seconds`, on every outbox entry of the account's cache.
    private func claimEverything(in folder: URL, holder: ProcessIdentity, for seconds: TimeInterval) throws {
        let data = folder.appendingPathComponent("data")
        let files = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "account.json" }
        let file = try #require(files?.first)
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var state = try #require(root["state"] as? [String: Any])
        var outbox = try #require(state["outbox"] as? [String: Any])
        let claim: [String: Any] = [
            "owner": UUID().uuidString, "until": Date().addingTimeInterval(seconds).timeIntervalSinceReferenceDate,
            "holder": ["pid": holder.pid, "startTime": holder.startTime],
        ]
        func claimed(_ entry: Any?) -> [String: Any]? {
            guard var entry = entry as? [String: Any], var delivery = entry["delivery"] as? [String: Any] else {
                return nil
            }
            delivery["claim"] = claim
            entry["delivery"] = delivery
            return entry
        }
        let physical: [String: Any] = try #require(claimed(outbox["physical"]))
        outbox["physical"] = physical
        outbox["progress"] = try #require(outbox["progress"] as? [Any]).compactMap(claimed)
        state["outbox"] = outbox
        root["state"] = state
        try JSONSerialization.data(withJSONObject: root).write(to: file)
    }

    @Test func twoProcessesRefreshingAtOnceStaySignedIn() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let issued = try sessionTokens(in: cli.folder)
                // The server's clock passes the access token's expiry (an hour): the server refuses it, so
                // both processes must refresh, and the refresh token may be spent only once.
                server.clock.advance(by: .seconds(2 * 3600))
                let runner = cli
                async let first = runner.run(["profile", "set", "--bio", "first"])
                async let second = runner.run(["profile", "set", "--name", "Second"])
                let (one, two) = try await (first, second)
                #expect(one.status == 0, "\(one)")
                #expect(two.status == 0, "\(two)")
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["signedIn"] as? Bool == true)
                #expect(status["pendingChanges"] as? Int == 0)
                let renewed = try sessionTokens(in: cli.folder)
                #expect(renewed.access != issued.access && renewed.refresh != issued.refresh)
            }
        }
    }

    @Test func aServerRunAsItsOwnProcessTakesItsClockFromTheTest() async throws {
        try await CLIHarness.with { cli in
            let server = try await TestDevServer.launch()
            defer { Task { await server.stop() } }
            cli.server = server.url
            #expect(try await cli.register().status == 0)
            let issued = try sessionTokens(in: cli.folder)
            #expect(try await cli.run(["profile", "set", "--bio", "before"]).status == 0)
            #expect(try sessionTokens(in: cli.folder) == issued)
            // Two hours later on the server's clock the access token has expired: the next command
            // is refused once, refreshes and goes through.
            server.clock.advance(by: .seconds(2 * 3600))
            let after = try await cli.run(["profile", "set", "--bio", "after"])
            #expect(after.status == 0, "\(after)")
            let renewed = try sessionTokens(in: cli.folder)
            #expect(renewed.access != issued.access && renewed.refresh != issued.refresh)
            let profile = try await cli.jsonObject(["profile", "show", "--json"])
            #expect(profile["bio"] as? String == "after")
            #expect(profile["pendingChanges"] as? Int == 0)
        }
    }

    /// The access and refresh tokens in the one session file under `folder`.
    private func sessionTokens(in folder: URL) throws -> Tokens {
        let file = try #require(
            FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }
                .first { $0.hasSuffix("session.json") })
        let session = try String(contentsOfFile: folder.appendingPathComponent(file).path, encoding: .utf8)
        func token(_ key: String) throws -> String {
            let match = try #require(session.firstMatch(of: try Regex("\"\(key)\"\\s*:\\s*\"([^\"]+)\"")))
            return try #require(match.output[1].substring.map(String.init))
        }
        return Tokens(access: try token("accessToken"), refresh: try token("refreshToken"))
    }

    private struct Tokens: Equatable {
        let access: String
        let refresh: String
    }

    @Test func noSecretLeavesTheSessionFile() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server) { cli in
                var outputs = [try await cli.register()]
                for arguments in [
                    ["profile", "set", "--bio", "x"], ["height", "set", "180"], ["status", "--json"],
                    ["whoami", "--json"],
                    ["profile", "show", "--json"], ["sync"], ["height", "history", "--csv"],
                ] {
                    outputs.append(try await cli.run(arguments))
                }
                let sessionFile = try #require(
                    FileManager.default.enumerator(atPath: cli.folder.path)?.compactMap { $0 as? String }
                        .first { $0.hasSuffix("session.json") })
                let session = try String(
                    contentsOfFile: cli.folder.appendingPathComponent(sessionFile).path, encoding: .utf8)
                let tokens = try #require(
                    session.matches(of: /"(?:accessToken|refreshToken)"\s*:\s*"([^"]+)"/).map { String($0.output.1) }
                        as [String]?)
                #expect(tokens.count == 2)
                let secrets = tokens + [CLIHarness.apiKey, CLIHarness.password]
                for output in outputs {
                    for secret in secrets {
                        #expect(!output.stdout.contains(secret) && !output.stderr.contains(secret))
                    }
                }
                for case let path as String in FileManager.default.enumerator(atPath: cli.folder.path) ?? .init()
                where !path.hasSuffix("session.json") {
                    guard let data = FileManager.default.contents(atPath: cli.folder.appendingPathComponent(path).path)
                    else { continue }
                    let text = String(decoding: data, as: UTF8.self)
                    for secret in secrets { #expect(!text.contains(secret), "\(path) holds a secret") }
                }
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: cli.folder.appendingPathComponent(sessionFile).path)
                #expect((attributes[.posixPermissions] as? Int) == 0o600)
                let log = try String(
                    contentsOfFile: cli.folder.appendingPathComponent("state/fitiq/fitiq-tui.log").path, encoding: .utf8
                )
                #expect(log.contains("PUT api/v1/users/me → 200"))
            }
        }
    }

    @Test func helpExplainsEveryCommand() async throws {
        try await CLIHarness.with { cli in
            let help = try await cli.run(["--help"])
            for command in [
                "register", "login", "logout", "whoami", "profile", "height", "sync", "status", "resolve", "undo",
            ] {
                #expect(help.stdout.contains(command))
            }
            #expect(help.stdout.contains("FITIQ_API_KEY"))
            let heightHelp = try await cli.run(["height", "set", "--help"])
            #expect(heightHelp.stdout.contains("5'11\""))
        }
    }

    /// Every command's help, down to the last subcommand (found in each help's SUBCOMMANDS), is wrapped
    /// text without padding: a help string with a run of spaces (a literal's line joined without `\`)
    /// came out as a line ending in spaces and the next one indented by one more.
    @Test func everyHelpIsWrappedWithoutPadding() async throws {
        try await CLIHarness.with { cli in
            var paths: [[String]] = [[]]
            var read = 0
            while let path = paths.popLast() {
                let help = try await cli.run(path + ["--help"]).stdout
                read += 1
                for line in help.split(separator: "\n") where line.last?.isWhitespace == true {
                    Issue.record("fitiq-tui \((path + ["--help"]).joined(separator: " ")): \"\(line)\" ends in spaces")
                }
                guard let listed = help.firstRange(of: "SUBCOMMANDS:")?.upperBound else { continue }
                for line in help[listed...].split(separator: "\n") {
                    // A subcommand's line starts with two spaces and its name; wrapped text and the
                    // closing "See 'fitiq-tui help …'" line do not.
                    guard line.hasPrefix("  "), line.dropFirst(2).first?.isLetter == true,
                        let name = line.dropFirst(2).split(whereSeparator: { $0 == " " || $0 == "," }).first,
                        name != "See"
                    else { continue }
                    paths.append(path + [String(name)])
                }
            }
            // The root, its 17 commands and their subcommands (35 helps in all).
            #expect(read > 30)
        }
    }
}
