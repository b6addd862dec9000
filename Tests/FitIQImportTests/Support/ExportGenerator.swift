import FitIQTestBasics
import Foundation

/// Runs `scripts/health/make-health-export.py` to make test exports.
enum ExportGenerator {
    /// The answers the generator writes with `--expect`.
    struct Answers: Decodable, Sendable {
        var count: Int
        var latestStartDate: String
        var latestCm: Double
        var decoyStartDate: String
        var decoyCm: Double
        var meDob: String
        var meSex: String
        var bytes: Int
        /// BodyMass records at the top level (a Correlation's are repeats), and the distinct readings
        /// they are (same minute and value to 0.01 kg); the latest reading, if any.
        var weightRecords: Int
        var weightReadings: Int
        var weightLatestStartDate: String?
        var weightLatestKg: Double?
        /// The same for BodyFatPercentage records, in percent.
        var bodyFatRecords: Int
        var bodyFatReadings: Int
        var bodyFatLatestStartDate: String?
        var bodyFatLatestPercent: Double?

        enum CodingKeys: String, CodingKey {
            case count, bytes
            case weightRecords = "weight_records"
            case weightReadings = "weight_readings"
            case weightLatestStartDate = "weight_latest_startDate"
            case weightLatestKg = "weight_latest_kg"
            case bodyFatRecords = "body_fat_records"
            case bodyFatReadings = "body_fat_readings"
            case bodyFatLatestStartDate = "body_fat_latest_startDate"
            case bodyFatLatestPercent = "body_fat_latest_percent"
            case latestStartDate = "latest_startDate"
            case latestCm = "latest_cm"
            case decoyStartDate = "decoy_startDate"
            case decoyCm = "decoy_cm"
            case meDob = "me_dob"
            case meSex = "me_sex"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The generator script (see ``RepositoryTools/healthExportGenerator``).
    static let script = RepositoryTools.healthExportGenerator

    /// Runs the generator with `arguments`; its stderr goes to `log`.
    static func run(_ arguments: [String], log: URL) async throws {
        guard let script else {
            throw Failure(description: "scripts/health/make-health-export.py not found")
        }
        try await python([script.path] + arguments, log: log)
    }

    /// Writes a zip at `url` holding `members` (name → content of a file), with Python's `zipfile`.
    static func zip(_ url: URL, members: [(name: String, source: URL)], log: URL) async throws {
        let program = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                for name, source in zip(sys.argv[2::2], sys.argv[3::2]):
                    z.write(source, name)
            """
        try await python(["-c", program, url.path] + members.flatMap { [$0.name, $0.source.path] }, log: log)
    }

    /// Runs `python3` with `arguments`; its stderr goes to `log`.
    static func python(_ arguments: [String], log: URL) async throws {
        let child = try ChildProcess(["/usr/bin/env", "python3"] + arguments, output: .discarded, errors: .file(log))
        let status = await child.exit(within: .seconds(600))
        guard status == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(description: "python3 failed (\(status)): \(text)")
        }
    }

    /// Generates an export into `directory` and returns its URL and the generator's answers.
    static func export(
        in directory: TemporaryFolder, name: String = "export.xml", _ options: [String]
    ) async throws -> (url: URL, answers: Answers) {
        let url = directory.file(name)
        let expect = directory.file(name + ".expect.json")
        try await run(options + ["--out", url.path, "--expect", expect.path], log: directory.file(name + ".log"))
        let answers = try JSONDecoder().decode(Answers.self, from: Data(contentsOf: expect))
        return (url, answers)
    }

    /// Parses a generator timestamp with Foundation (an oracle independent of the reader's parser).
    static func instant(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        return formatter.date(from: text)
    }
}
