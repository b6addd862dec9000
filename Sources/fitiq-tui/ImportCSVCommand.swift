import ArgumentParser
import FitIQCore
import FitIQHealth
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `fitiq-tui import-csv FILE`: measurements from fitiq-tui's own export, openScale, wger or a plain
/// `date,weight` file.
struct ImportCSVCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-csv", abstract: "Import measurements from a CSV file.",
        discussion: """
            The header decides the format: fitiq-tui's export (logged_at,metric,value,unit,source,id), \
            openScale's export ("dateTime","weight","fat",…; 0.0 is no value), wger's weight export \
            (Date,Weight) or a plain date,weight file (--unit kg or lb). Dates without a time are logged \
            at 12:00 local time. A reading already in the history (same metric, minute and value) is \
            skipped, so importing a file again sends nothing. With a bad row nothing is imported unless \
            --skip-invalid.
            """)

    @OptionGroup var globals: GlobalOptions
    @Argument(help: "The CSV file.") var path: String
    @Option(help: "The unit of a date,weight file's weights: kg (the default) or lb.") var unit: String?
    @Flag(help: "Import the good rows and say how many bad ones were skipped.") var skipInvalid = false
    @Flag(help: "Only save on this machine, without asking the server; `sync` sends it later.") var noSync = false

    func validate() throws {
        if let unit, !["kg", "lb", "lbs"].contains(unit.lowercased()) {
            throw ValidationError("--unit must be kg or lb.")
        }
    }

    func run() async throws {
        try await withApp(globals) { app in
            let account = try app.requireAccount()
            let url = URL(fileURLWithPath: UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"]))
            let meter = ProgressMeter(label: url.lastPathComponent, terminal: StandardStreams.isTerminal(2))
            let file: MeasurementCSV
            do {
                file = try MeasurementCSVFile.read(
                    url, unit: unit, zone: account.environment.timeZone, progress: meter.report)
                meter.end()
            } catch let error as HealthImportError {
                meter.end()
                printError(tr("Error: {message}", ["message": "\(error)"]))
                throw ExitCode.failure
            } catch {
                meter.end()
                throw error
            }
            let result: ReadingsImportResult
            do {
                result = try await account.importCSV(file, skipInvalid: skipInvalid, readingServer: !noSync)
            } catch let error as BadRowsError {
                printError(
                    trn(
                        "Error: nothing was imported: {count} row breaks a rule (--skip-invalid imports the rest):",
                        "Error: nothing was imported: {count} rows break a rule (--skip-invalid imports the rest):",
                        count: error.problems.count))
                for problem in error.problems.prefix(20) {
                    printError("  " + TextSanitizer.sanitize(problem.description))
                }
                if error.problems.count > 20 {
                    printError("  " + tr("… and {count} more", ["count": String(error.problems.count - 20)]))
                }
                throw Exit.usage
            }
            print(tr("Read {file}.", ["file": TextSanitizer.sanitize(url.lastPathComponent)]))
            for line in result.summary(of: file) { print(line) }
            if result.queuedAnything { try await finishWrite(account, noSync: noSync) }
        }
    }
}
