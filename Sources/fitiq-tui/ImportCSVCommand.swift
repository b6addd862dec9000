import ArgumentParser
import FitIQCore

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
    @Flag(help: "Only save on this machine; `sync` sends it later.") var noSync = false

    func validate() throws {
        if let unit, !["kg", "lb", "lbs"].contains(unit.lowercased()) {
            throw ValidationError("--unit must be kg or lb.")
        }
    }

    func run() async throws {
        try await withApp(globals) { app in
            let account = try app.requireAccount()
            let url = URL(fileURLWithPath: UserPath.expand(path, home: ProcessInfo.processInfo.environment["HOME"]))
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                printError("Error: cannot read \(TextSanitizer.sanitize(url.path)).")
                throw ExitCode.failure
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                printError(
                    "Error: \(TextSanitizer.sanitize(url.lastPathComponent)) is not UTF-8 text; nothing was imported.")
                throw Exit.usage
            }
            let csv = try MeasurementCSV.read(text, unit: unit, zone: .system)
            if !csv.problems.isEmpty && !skipInvalid {
                printError(
                    "Error: nothing was imported: \(plural(csv.problems.count, "row")) break a rule "
                        + "(--skip-invalid imports the rest):")
                for problem in csv.problems.prefix(20) {
                    printError("  " + TextSanitizer.sanitize(problem.description))
                }
                if csv.problems.count > 20 { printError("  … and \(csv.problems.count - 20) more") }
                throw Exit.usage
            }
            let result = try await account.importReadings(csv.readings)
            print("Read \(TextSanitizer.sanitize(url.lastPathComponent)) as \(csv.format.rawValue).")
            for metric in Metric.all where result[metric].read > 0 {
                let done = result[metric]
                print("\(metric.pluralName): \(done.read) read, \(done.new) new, \(done.alreadyThere) already there.")
            }
            if !csv.problems.isEmpty { print("Skipped \(plural(csv.problems.count, "bad row")).") }
            if csv.derivedRowsSkipped > 0 {
                print("Skipped \(plural(csv.derivedRowsSkipped, "BMI row")): BMI is derived from weight and height.")
            }
            if !csv.skippedColumns.isEmpty {
                print(
                    "Columns not imported: \(csv.skippedColumns.map(TextSanitizer.sanitize).joined(separator: ", ")).")
            }
            if Metric.all.contains(where: { result[$0].new > 0 }) { try await finishWrite(account, noSync: noSync) }
        }
    }
}
