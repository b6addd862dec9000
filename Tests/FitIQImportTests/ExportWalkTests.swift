import FitIQCore
import FitIQTestBasics
import FitIQWords
import Foundation
import Testing

@testable import FitIQImport

/// `import PATH` over other apps' exports: each format's files as their users' apps write them, with
/// the pitfalls each has, read from a file, a folder or a zip.
struct ExportWalkTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apps")
    static let berlin = LocalZone.fixed(secondsEastOfUTC: 3_600)
    static let options = ImportOptions(zone: berlin)

    static func read(_ path: String, _ options: ImportOptions = options, heightCm: Double? = nil) throws
        -> [ImportedFile]
    {
        try ExportWalk().read(
            fixtures.appendingPathComponent(path).path, format: nil, options: options, heightCm: heightCm)
    }

    static func instant(_ text: String) throws -> Date { try #require(RFC3339.parse(text)) }

    static func values(_ file: FileReadings, _ metric: Metric) -> [Double] {
        file.readings.filter { $0.metric == metric }.map(\.value)
    }

    @Test func withingsLocalTimesNewestFirstWithFatAsAMass() throws {
        let files = try Self.read("withings")
        #expect(files.map(\.name) == ["height.csv", "weight.csv"])
        let weight = try #require(files.last?.file)
        #expect(weight.format == ExportFormat.withings.name)
        #expect(weight.badRows.isEmpty)
        // Newest first in the file; the duplicate row is read twice and counted once by the import.
        #expect(Self.values(weight, .weight) == [80.1, 80.4, 80.4, 80.7])
        // Fat mass 16.02 kg of 80.10 kg is 20 %.
        #expect(Self.values(weight, .bodyFat) == [20, 20.2])
        // "2024-03-03 07:31:22" is Berlin's local time: 06:31:22 UTC.
        #expect(weight.readings.first?.loggedAt == (try Self.instant("2024-03-03T06:31:22Z")))
        #expect(weight.readings.allSatisfy { $0.source == .withings })
        #expect(Self.values(try #require(files.first?.file), .height) == [181])
    }

    @Test func samsungHealthSkipsItsMetadataLineAndReadsUTC() throws {
        let files = try Self.read("samsung")
        // The step count file is passed over: only weights are read.
        #expect(files.count == 1)
        let file = try #require(files.first?.file)
        #expect(file.format == ExportFormat.samsungHealth.name)
        #expect(file.badRows.isEmpty)
        #expect(Self.values(file, .weight) == [71.3, 71.1, 70.9])
        // An empty body fat, and 0, are no readings.
        #expect(Self.values(file, .bodyFat) == [22.4])
        #expect(file.readings.first?.loggedAt == (try Self.instant("2024-03-01T06:15:00Z")))
        #expect(file.readings.allSatisfy { $0.source == .samsungHealth })
    }

    @Test func fitbitPoundsAreToldFromTheBMIBesideThem() throws {
        let files = try Self.read("takeout/Takeout/Fitbit")
        let file = try #require(files.first?.file)
        #expect(file.format == ExportFormat.fitbit.name)
        #expect(file.inferredUnit == "lb")
        #expect(Self.values(file, .weight) == [80.1, 79.92])
        #expect(Self.values(file, .bodyFat) == [21.5])
        // "03/01/24" "07:30:45" is Berlin's local time.
        #expect(file.readings.first?.loggedAt == (try Self.instant("2024-03-01T06:30:45Z")))
        // A height known from the profile tells the same; an option says it outright.
        #expect(try Self.read("takeout/Takeout/Fitbit", heightCm: 180).first?.file.inferredUnit == "lb")
        let told = try Self.read("takeout/Takeout/Fitbit", ImportOptions(unit: "kg", zone: Self.berlin))
        #expect(told.first?.file.inferredUnit == nil)
        #expect(Self.values(try #require(told.first?.file), .weight) == [176.6, 176.2])
    }

    @Test func googleFitKindsComeFromTheDataTypeAndTimesInNanoseconds() throws {
        let files = try Self.read("takeout/Takeout/Fit")
        let file = try #require(files.first?.file)
        #expect(file.format == ExportFormat.googleFit.name)
        #expect(Self.values(file, .weight) == [79.8])
        #expect(Self.values(file, .bodyFat) == [19.4])
        #expect(Self.values(file, .height) == [180.5])
        #expect(file.readings.first?.loggedAt == Date(timeIntervalSince1970: 1_709_450_000))
        #expect(file.readings.count == 3, "steps are no reading")
    }

    @Test func aTakeoutFolderReadsFitbitAndGoogleFitTogether() throws {
        let files = try Self.read("takeout")
        #expect(files.map(\.file.format) == ["google-fit", "fitbit"])
    }

    @Test func garminGramsWithAFailedReadingAndOtherBiometrics() throws {
        let file = try #require(try Self.read("garmin").first?.file)
        #expect(file.format == ExportFormat.garmin.name)
        #expect(file.badRows.isEmpty)
        // 0.0 is a failed reading; the vo2Max entry is another biometric.
        #expect(Self.values(file, .weight) == [81.3, 81])
        #expect(Self.values(file, .bodyFat) == [23.1])
        #expect(file.readings.first?.loggedAt == Date(timeIntervalSince1970: 1_709_280_000))
        #expect(file.readings.last?.loggedAt == (try Self.instant("2024-03-03T06:40:00Z")))
    }

    @Test func libraUnitsDecimalCommasAndNoTrend() throws {
        let file = try #require(try Self.read("libra").first?.file)
        #expect(file.format == ExportFormat.libra.name)
        #expect(file.badRows.isEmpty)
        // 176,4 lb (its #Units line) is 80.01 kg; the trend columns are not readings.
        #expect(Self.values(file, .weight) == [80.01, 79.79, 79.79])
        #expect(Self.values(file, .bodyFat) == [21.2])
        #expect(file.skippedColumns == ["weight trend", "body fat trend", "comment"])
    }

    @Test func renphoTellsDayFromMonthByTheRowThatSettlesIt() throws {
        let file = try #require(try Self.read("renpho/renpho.csv").first?.file)
        #expect(file.format == ExportFormat.renpho.name)
        #expect(file.badRows.isEmpty)
        // 14/03/2024 settles it: 03/04/2024 is 3 April. `--` is a value the scale did not measure.
        #expect(
            file.readings.map(\.loggedAt) == [
                try Self.instant("2024-04-03T06:12:40Z"), try Self.instant("2024-04-03T06:12:40Z"),
                try Self.instant("2024-03-14T06:10:02Z"),
            ])
        #expect(Self.values(file, .weight) == [72.4, 72.1])
        #expect(Self.values(file, .bodyFat) == [18.2])
    }

    @Test func renphoAsksForTheDateOrderOnlyWhenNoRowTellsIt() throws {
        #expect {
            try Self.read("renpho/renpho-lb.csv")
        } throws: { error in
            guard case HealthImportError.unreadableFile(let path, .dateOrderUnclear) = error else { return false }
            return path.hasSuffix("renpho-lb.csv") && "\(error)".contains("--date-order")
        }
        let told = ImportOptions(zone: Self.berlin, dateOrder: .monthFirst)
        let file = try #require(try Self.read("renpho/renpho-lb.csv", told).first?.file)
        // Pounds from the header; 7:10:02 PM is 19:10:02.
        #expect(Self.values(file, .weight) == [72.39, 72.21])
        #expect(file.readings.last?.loggedAt == (try Self.instant("2024-03-05T18:10:02Z")))
    }

    @Test func aZipIsReadEntryByEntryAndOnlyKnownEntriesAreRead() async throws {
        let folder = try TemporaryFolder("fitiq-app-export")
        defer { folder.remove() }
        let noise = folder.file("noise.bin")
        try Data(repeating: 0x41, count: 2 << 20).write(to: noise)
        let samsung = Self.fixtures.appendingPathComponent(
            "samsung/samsunghealth_anna_20240301120000/com.samsung.health.weight.20240301120000.csv")
        let zip = folder.file("export.zip")
        try await ExportGenerator.zip(
            zip, members: [("export/noise.bin", noise), ("export/weight.csv", samsung)], log: folder.file("zip.log"))
        let files = try ExportWalk().read(zip.path, format: nil, options: Self.options, heightCm: nil)
        #expect(files.map(\.name) == ["export/weight.csv"])
        #expect(files.first?.file.readings.count == 4)
    }

    @Test func anUnknownFileACutZipAndAnotherAppsFileAreNamed() async throws {
        let folder = try TemporaryFolder("fitiq-app-export")
        defer { folder.remove() }
        let unknown = folder.file("photo.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]).write(to: unknown)
        #expect(throws: HealthImportError.unknownFile(path: unknown.path)) {
            try ExportWalk().read(unknown.path, format: nil, options: Self.options, heightCm: nil)
        }
        // A table of another kind: its header is named.
        let table = folder.file("notes.csv")
        try Data("when,kilos\n2024-03-01,80\n".utf8).write(to: table)
        #expect(
            throws: HealthImportError.unreadableFile(
                path: table.path, .unknownHeader("when,kilos", formats: ExportFormat.tablesDescribed))
        ) {
            try ExportWalk().read(table.path, format: nil, options: Self.options, heightCm: nil)
        }
        let weight = Self.fixtures.appendingPathComponent("withings/weight.csv")
        let zip = folder.file("cut.zip")
        try await ExportGenerator.zip(zip, members: [("weight.csv", weight)], log: folder.file("zip.log"))
        let whole = try Data(contentsOf: zip)
        try whole.prefix(whole.count - 30).write(to: zip)
        #expect {
            try ExportWalk().read(zip.path, format: nil, options: Self.options, heightCm: nil)
        } throws: { error in
            guard case HealthImportError.damagedArchive(let path, _) = error else { return false }
            return path == zip.path
        }
        // Asked for Garmin, a Withings file is not one.
        #expect(throws: HealthImportError.unknownFile(path: weight.path)) {
            try ExportWalk().read(weight.path, format: "garmin", options: Self.options, heightCm: nil)
        }
        // A SQLite header over a page of nothing: SQLite refuses it, and the file is named.
        let database = folder.file("health_connect_export.db")
        try Data("SQLite format 3\u{0}rest of the page".utf8).write(to: database)
        #expect {
            try ExportWalk().read(database.path, format: nil, options: Self.options, heightCm: nil)
        } throws: { "\($0)".contains("health_connect_export.db") }
    }

    @Test func anAppleHealthExportIsToldFromOthers() async throws {
        let folder = try TemporaryFolder("fitiq-app-export")
        defer { folder.remove() }
        let xml = folder.file("export.xml")
        try Data("<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n</HealthData>\n".utf8).write(to: xml)
        #expect(ExportWalk().isAppleHealthExport(xml.path))
        #expect(!ExportWalk().isAppleHealthExport(Self.fixtures.appendingPathComponent("withings/weight.csv").path))
        #expect(!ExportWalk().isAppleHealthExport(Self.fixtures.path))
    }

    /// Health Connect's export: a zip holding a SQLite database whose weights are in grams, heights in
    /// metres, times in milliseconds since 1970 (UTC); read with the system's libsqlite3.
    @Test func healthConnectsDatabaseInItsZip() async throws {
        let folder = try TemporaryFolder("fitiq-app-export")
        defer { folder.remove() }
        let database = folder.file("health_connect_export.db")
        let program = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("CREATE TABLE weight_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, weight REAL)")
            db.execute("CREATE TABLE body_fat_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, percentage REAL)")
            db.execute("CREATE TABLE height_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, height REAL)")
            db.execute("CREATE TABLE steps_record_table (row_id INTEGER PRIMARY KEY, start_time INTEGER, count INTEGER)")
            db.executemany("INSERT INTO weight_record_table (time, zone_offset, weight) VALUES (?, 3600, ?)",
                           [(1709280000000, 81300.0), (1709366400000, 81050.0), (1709452800000, None)])
            db.execute("INSERT INTO body_fat_record_table (time, zone_offset, percentage) VALUES (1709280000000, 3600, 23.1)")
            db.execute("INSERT INTO height_record_table (time, zone_offset, height) VALUES (1709280000000, 3600, 1.812)")
            db.commit()
            """
        try await ExportGenerator.python(["-c", program, database.path], log: folder.file("db.log"))
        let zip = folder.file("Health Connect.zip")
        try await ExportGenerator.zip(
            zip, members: [("health_connect_export.db", database)], log: folder.file("zip.log"))

        let files = try ExportWalk().read(zip.path, format: nil, options: Self.options, heightCm: nil)
        let file = try #require(files.first?.file)
        #expect(file.format == ExportFormat.healthConnect.name)
        #expect(Self.values(file, .weight) == [81.3, 81.05])
        #expect(Self.values(file, .bodyFat) == [23.1])
        #expect(Self.values(file, .height) == [181.2])
        #expect(file.readings.first?.loggedAt == Date(timeIntervalSince1970: 1_709_280_000))
        #expect(file.readings.allSatisfy { $0.source == .healthConnect })
        // The weight without a value is named by its table and row.
        #expect(file.badRows.map(\.description) == ["weight_record_table, entry 3: Weight must be a number"])
        // The database alone reads the same.
        #expect(
            try ExportWalk().read(database.path, format: nil, options: Self.options, heightCm: nil).first?.file == file)
    }
}
