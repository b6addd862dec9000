import ArgumentParser
import FitIQCore
import FitIQImport
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `fitiq-tui import PATH`: a person's history from the apps they already use, and Apple Health.
struct ImportCommand: AsyncParsableCommand, SendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import your history from Apple Health or another app's export.",
        discussion: """
            PATH is a file, a zip or a folder (an unpacked export). What each file is comes from its content: \
            an Apple Health export (export.zip or export.xml), Withings (weight.csv, height.csv), Samsung \
            Health (its weight, daily step, sleep and water files), Fitbit and Google Fit in Google Takeout \
            (Global Export Data, the JSON files of All Data), Garmin Connect (DI_CONNECT: userBioMetrics, \
            the daily summaries, sleep), Android Health Connect (its database, in a zip), Libra, Renpho, \
            openScale, wger, or \
            fitiq-tui's own export (export --csv or --json: every metric, with its notes and sources; its \
            derived BMI rows and its goals are left out). Weights, body fat and heights become history entries, \
            each keeping the app it came from; no other app's BMI is imported (it is derived), and biological \
            sex comes only from Apple Health. A reading already held (the same metric and minute, and the same value to 0.1) is not \
            added again, whichever app it came from, so importing again adds nothing. Steps, sleep, water, \
            food, energy and resting heart rate become one entry a day each: of several sources of a day \
            (a phone and a watch) the one with the most stands, never their sum, and a day that holds the \
            metric already is left as it is. A bad row stops the \
            import unless --skip-invalid; nothing is written when an import fails.
            """,
        aliases: ["import-health", "import-csv"])

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The file, zip or folder.") var path: String
    @Option(help: "Read only files of this format (\(formatNames)).") var format: String?
    @Flag(help: "Read and report what would be imported; write nothing.") var dryRun = false
    @Option(help: "The unit of weights where the file does not say: kg or lb.") var unit: String?
    @Option(help: "The zone of times written without one: UTC, +02:00, or a name such as Europe/Berlin.")
    var zone: String?
    @Option(help: "Whether 03/04/2024 is day first (dmy) or month first (mdy), where no row tells.")
    var dateOrder: String?
    @Flag(help: "Import the good rows and say how many bad ones were skipped.") var skipInvalid = false
    @Flag(help: "Only save on this machine, without asking the server; `sync` sends it later.") var noSync = false
    @Flag(help: "Print what was read and added as JSON (other apps' exports).") var json = false

    /// Unless `--no-sync` or `--dry-run`; and not early with `--zone`, whose named zone is set in the
    /// environment (`setenv`) before any other thread runs: the load follows it (``withApp``'s `sending`).
    static func sends(_ arguments: [String]) -> Bool {
        !arguments.contains { ["--no-sync", "--dry-run", "--zone"].contains($0) || $0.hasPrefix("--zone=") }
    }

    static var formatNames: String {
        (["apple-health"] + ExportFormat.all.map(\.name)).joined(separator: ", ")
    }

    func validate() throws {
        if let unit, !["kg", "lb", "lbs"].contains(unit.lowercased()) {
            throw ValidationError("--unit must be kg or lb.")
        }
        if let format, format != "apple-health", ExportFormat.named(format) == nil {
            throw ValidationError("--format must be one of \(Self.formatNames).")
        }
        if let dateOrder, DateOrder(rawValue: dateOrder) == nil {
            throw ValidationError("--date-order must be dmy or mdy.")
        }
        if let zone, ImportZone(zone) == nil {
            throw ValidationError(
                "--zone must be UTC, an offset such as +02:00, or a zone this machine knows (Europe/Berlin).")
        }
    }

    func run() async throws {
        let zone = zone.flatMap(ImportZone.init)
        zone?.enterIfNamed()
        try await withApp(globals, sending: !noSync && !dryRun) { app in
            let account = try app.requireAccount()
            let url = URL(fileURLWithPath: UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"]))
            let forced = format.flatMap(ExportFormat.named)
            if format == "apple-health" || (forced == nil && AppleHealthExport.isExport(url)) {
                return try await importAppleHealth(url, into: account)
            }
            let profile = try await account.view().profile
            let options = ImportOptions(
                unit: unit, zone: zone?.local ?? account.environment.timeZone,
                dateOrder: dateOrder.flatMap(DateOrder.init))
            let meter = ProgressMeter(label: url.lastPathComponent, terminal: StandardStreams.isTerminal(2))
            let files: [ImportedFile]
            do {
                files = try ExportWalk.read(
                    url, format: forced, options: options, heightCm: profile?.heightCm, progress: meter.report)
                meter.end()
            } catch let error as HealthImportError {
                meter.end()
                printError(tr("Error: {message}", ["message": "\(error)"]))
                // What the file holds is the problem (64), not reading it (1).
                switch error {
                case .missing, .unknownFile, .unreadableFile, .nothingToRead: throw Exit.usage
                default: throw ExitCode.failure
                }
            }
            let result: ReadingsImportResult
            do {
                let applied = try await account.apply(
                    .importFiles(files, skipInvalid: skipInvalid, preview: dryRun), sending: !noSync)
                guard case .imported(let imported, _) = applied.outcome else { return }
                result = imported
            } catch let error as BadRowsError {
                printError(
                    trn(
                        "Error: nothing was imported: {count} row breaks a rule (--skip-invalid imports the rest):",
                        "Error: nothing was imported: {count} rows break a rule (--skip-invalid imports the rest):",
                        count: error.problems.count))
                for problem in error.problems.prefix(20) { printError("  " + problem.description) }
                if error.problems.count > 20 {
                    printError("  " + tr("… and {count} more", ["count": String(error.problems.count - 20)]))
                }
                throw Exit.usage
            }
            if json {
                print(Output.json(ImportJSON(files: files, result: result, dryRun: dryRun)))
                // Sent as after any write; what is still pending shows in `status --json`, not here.
                if !dryRun && result.queuedAnything && !noSync { _ = try? await account.deliver() }
                return
            }
            for line in result.summary(
                of: files, preview: dryRun, zone: zone?.name ?? ExportWalk().zoneName,
                timeZone: account.environment.timeZone, describe: ExportFormat.describe)
            {
                print(line)
            }
            if dryRun { print(tr("Nothing was written (--dry-run).")) }
            if !dryRun && result.queuedAnything { try await finishWrite(account, noSync: noSync) }
        }
    }

    /// An Apple Health export: biological sex, the date of birth, heights, weights and body fat.
    private func importAppleHealth(_ url: URL, into account: Account) async throws {
        let meter = ProgressMeter(label: url.lastPathComponent, terminal: StandardStreams.isTerminal(2))
        let started = ContinuousClock.now
        let result: HealthImportResult
        do {
            let snapshot = try await AppleHealthExport(url: url).read(progress: meter.report)
            let request = ChangeRequest.importHealth(snapshot, fileName: url.lastPathComponent, preview: dryRun)
            guard case .healthImported(let imported) = try await account.apply(request).outcome
            else { return }
            result = imported
        } catch {
            meter.end()
            throw error
        }
        meter.end()
        let elapsed = ContinuousClock.now - started
        print(
            tr(
                "Read {file} in {time} ({figures}).",
                [
                    "file": TextSanitizer.sanitize(url.path), "time": Output.seconds(elapsed),
                    "figures": meter.figures(elapsed),
                ]))
        var posted: [String: Int]?
        if dryRun {
            let profile = try await account.view().profile
            // Its first line says what became of biological sex, which a preview does not change.
            for line in result.summary(
                unitSystem: profile?.metadata.preferredUnitSystem ?? .metric, profileDateOfBirth: nil
            ).dropFirst() {
                print(line)
            }
            print(tr("Nothing was written (--dry-run)."))
            return
        }
        if result.queuedAnything {
            if noSync {
                try await finishWrite(account, noSync: true)
            } else {
                try await syncAfterWrite(account)
                let synced = try await account.delivered(Set(result.metrics.values.flatMap(\.newEntries)))
                posted = result.metrics.mapValues { $0.newEntries.filter(synced.contains).count }
            }
        } else {
            print(tr("Nothing new to send: the server already has everything in this export."))
        }
        let profile = try await account.view().profile
        for line in result.summary(
            unitSystem: profile?.metadata.preferredUnitSystem ?? .metric, posted: posted,
            profileDateOfBirth: profile?.physical.dateOfBirth)
        {
            print(line)
        }
    }
}

/// `import --json`: each file read, and per metric what was read, added (or, with `--dry-run`, would
/// be) and already held. Keys and values are English, as every `--json`.
struct ImportJSON: Encodable {
    struct File: Encodable {
        var name: String
        var format: String
        var readings: Int
        var skippedRows: Int
        var inferredUnit: String?
    }

    /// For an app's activity (`days`), `read` counts days found and `alreadyThere` days held already.
    struct Counts: Encodable {
        var read: Int
        var new: Int
        var alreadyThere: Int
        var days: Bool
        var refused: Int
    }

    var dryRun: Bool
    var files: [File]
    var metrics: [String: Counts]

    init(files: [ImportedFile], result: ReadingsImportResult, dryRun: Bool) {
        self.dryRun = dryRun
        self.files = files.map {
            File(
                name: TextSanitizer.sanitize($0.name), format: $0.file.format,
                readings: $0.file.readings.count,
                skippedRows: $0.file.badRows.count, inferredUnit: $0.file.inferredUnit)
        }
        metrics = result.metrics.mapValues {
            Counts(read: $0.read, new: $0.new, alreadyThere: $0.alreadyThere, days: $0.isDays, refused: $0.refused)
        }
    }
}
