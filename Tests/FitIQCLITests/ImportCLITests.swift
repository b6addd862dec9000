import FitIQTestSupport
import Foundation
import Testing

/// `fitiq-tui import` over other apps' exports, end to end against the development server: one
/// command for every format, a second import that adds nothing, a reading held from one app that is
/// not added again from another, and a dry run that writes nothing.
@Suite(.serialized) struct ImportCLITests {
    static let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../FitIQImportTests/Fixtures/apps").standardizedFileURL

    @Test func everyAppsExportImportsOnceAndADryRunWritesNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // The Renpho file whose dates do not tell their order is named, and nothing is imported.
                let unclear = try await cli.run(["import", Self.apps.path, "--zone", "+01:00"])
                #expect(unclear.status == 64, "\(unclear)")
                #expect(unclear.stderr.contains("renpho-lb.csv") && unclear.stderr.contains("--date-order"))
                #expect(try await cli.jsonRows(["weight", "history", "--json"]).isEmpty)

                let preview = try await cli.run([
                    "import", Self.apps.path, "--dry-run", "--zone", "+01:00", "--date-order", "mdy",
                ])
                #expect(preview.status == 0, "\(preview)")
                #expect(preview.stdout.contains("Weights: 19 read, 17 new, 2 already there."), "\(preview)")
                #expect(preview.stdout.contains("Nothing was written (--dry-run)."), "\(preview)")
                #expect(preview.stdout.contains("Times without a zone were read in +01:00."), "\(preview)")
                #expect(try await cli.jsonRows(["weight", "history", "--json"]).isEmpty)
                let json = try await cli.jsonObject([
                    "import", Self.apps.appendingPathComponent("withings").path, "--dry-run", "--json",
                ])
                #expect(json["dryRun"] as? Bool == true)
                #expect(
                    (json["files"] as? [[String: Any]])?.map { $0["format"] as? String } == ["withings", "withings"])
                let counts = (json["metrics"] as? [String: Any])?["weight"] as? [String: Int]
                #expect(counts == ["read": 4, "new": 3, "alreadyThere": 1, "days": 0, "refused": 0], "\(json)")

                let imported = try await cli.run(["import", Self.apps.path, "--zone", "+01:00", "--date-order", "mdy"])
                #expect(imported.status == 0, "\(imported)")
                for name in [
                    "weight.csv: Withings", "com.samsung.health.weight.20240301120000.csv: Samsung Health",
                    "weight-2024-03-01.json: Fitbit", "userBioMetrics.json: Garmin", "libra.csv: Libra",
                    "renpho.csv: Renpho", "All Data",
                ] {
                    #expect(imported.stdout.contains(name), "\(name): \(imported)")
                }
                let weights = try await cli.jsonRows(["weight", "history", "--json"])
                // Withings' duplicate row and Libra's count once.
                #expect(imported.stdout.contains("Weights: 19 read, 17 new, 2 already there."), "\(imported)")
                #expect(weights.count == 17, "\(weights)")
                let sources = Set(weights.compactMap { $0["source"] as? String })
                #expect(
                    sources.isSuperset(of: [
                        "withings", "samsung-health", "fitbit", "google-fit", "garmin", "libra", "renpho",
                    ]), "\(sources)")

                let again = try await cli.run(["import", Self.apps.path, "--zone", "+01:00", "--date-order", "mdy"])
                #expect(again.status == 0, "\(again)")
                #expect(again.stdout.contains("Weights: 19 read, 0 new, 19 already there."), "\(again)")
            }
        }
    }

    static let activity = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../FitIQImportTests/Fixtures/activity").standardizedFileURL

    /// Fitbit, Google Fit, Garmin and Samsung Health's steps, sleep, energy and water: one entry a day a
    /// metric reaches the server, and a second import of everything posts nothing.
    @Test func everyAppsActivityIsADaysTotalAndASecondImportPostsNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // The fixtures hold rows that break a rule: named, and nothing imported without --skip-invalid.
                let refused = try await cli.run(["import", Self.activity.path, "--zone", "+01:00"])
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("a sample must not end before it starts"), "\(refused)")

                let preview = try await cli.jsonObject([
                    "import", Self.activity.path, "--zone", "+01:00", "--skip-invalid", "--dry-run", "--json",
                ])
                let previewed = try #require(preview["metrics"] as? [String: [String: Any]])
                let steps = try #require(previewed["steps"])
                #expect(steps["days"] as? Bool == true)
                let newSteps = try #require(steps["new"] as? Int)
                #expect(newSteps > 0 && steps["alreadyThere"] as? Int == 0, "\(steps)")
                #expect(try await cli.jsonRows(["history", "steps", "--json"]).isEmpty)

                let first = try await cli.run(["import", Self.activity.path, "--zone", "+01:00", "--skip-invalid"])
                #expect(first.status == 0, "\(first)")
                #expect(first.stdout.contains("Steps: "), "\(first)")
                let held = try await cli.jsonRows(["history", "steps", "--json"])
                #expect(held.count == newSteps, "\(held)")
                // One entry a day: no two on one day.
                let days = held.compactMap { ($0["loggedAt"] as? String)?.prefix(10) }
                #expect(Set(days).count == days.count, "\(days)")
                let sleep = try await cli.jsonRows(["history", "sleep", "--json"])
                #expect(!sleep.isEmpty)

                let again = try await cli.run(["import", Self.activity.path, "--zone", "+01:00", "--skip-invalid"])
                #expect(again.status == 0, "\(again)")
                for line in again.stdout.split(separator: "\n") where line.contains(" days found, ") {
                    #expect(line.contains(" days found, 0 new, "), "\(line)")
                }
                #expect(try await cli.jsonRows(["history", "steps", "--json"]).count == newSteps)
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0, "\(status)")
            }
        }
    }

    @Test func aReadingHeldFromOneAppIsNotAddedAgainFromAnother() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                // Withings says 80.10 kg at 07:31:22; Libra, in pounds, 176.6 lb at the same minute (80.1 kg
                // to the 0.1 kg a weight is shown to).
                let libra = cli.folder.appendingPathComponent("libra.csv")
                try Data(
                    "#Version:6\n#Units:lb\n#date;weight;weight trend;body fat;body fat trend;comment\n2024-03-03T06:31:50.000Z;176,6;176,6;;;\n"
                        .utf8
                ).write(to: libra)
                let withings = Self.apps.appendingPathComponent("withings/weight.csv")
                #expect(try await cli.run(["import", withings.path, "--zone", "+01:00"]).status == 0)
                let fromLibra = try await cli.run(["import", libra.path])
                #expect(fromLibra.stdout.contains("Weights: 1 read, 0 new, 1 already there."), "\(fromLibra)")
            }
        }
    }

    @Test func aCutZipAndAnotherAppsFileAreNamedAndChangeNothing() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let weights = Self.apps.appendingPathComponent("withings/weight.csv")
                let zip = cli.folder.appendingPathComponent("takeout.zip")
                let python = CommandRunner(executable: URL(fileURLWithPath: "/usr/bin/python3"), environment: [:])
                let made = try await python.run([
                    "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').write(sys.argv[2], 'weight.csv')",
                    zip.path, weights.path,
                ])
                #expect(made.status == 0, "\(made)")
                let whole = try Data(contentsOf: zip)
                try whole.prefix(whole.count - 40).write(to: zip)
                let cut = try await cli.run(["import", zip.path])
                #expect(cut.status != 0, "\(cut)")
                #expect(cut.stderr.contains(zip.path) && cut.stderr.contains("damaged zip"), "\(cut)")
                // A Withings file is no Garmin export.
                let other = try await cli.run(["import", weights.path, "--format", "garmin"])
                #expect(other.status == 64, "\(other)")
                #expect(other.stderr.contains(weights.path), "\(other)")
                #expect(try await cli.jsonRows(["weight", "history", "--json"]).isEmpty)
                let status = try await cli.jsonObject(["status", "--json"])
                #expect(status["pendingChanges"] as? Int == 0)
            }
        }
    }

    /// `--zone` takes a zone of the machine's database: Withings' local times are read in it, daylight
    /// saving time included; a zone the machine does not know is refused naming the option.
    @Test func aNamedZoneReadsLocalTimesInIt() async throws {
        try await TestDevServer.with { server in
            try await withCLI(server, registered: true) { cli in
                let refused = try await cli.run(["import", Self.apps.path, "--zone", "Mars/Olympus_Mons"])
                #expect(refused.status == 64, "\(refused)")
                #expect(refused.stderr.contains("--zone"), "\(refused)")
                let withings = Self.apps.appendingPathComponent("withings/weight.csv")
                let imported = try await cli.run(["import", withings.path, "--zone", "America/New_York"])
                #expect(imported.stdout.contains("Times without a zone were read in America/New_York."), "\(imported)")
                let rows = try await cli.jsonRows(["weight", "history", "--json"])
                // 2024-03-03 07:31:22 in New York (EST, −5 h) is 12:31:22 UTC.
                #expect(
                    rows.contains { ($0["loggedAt"] as? String)?.hasPrefix("2024-03-03T12:31:22") == true }, "\(rows)")
            }
        }
    }
}
