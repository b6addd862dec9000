import FitIQCore
import FitIQTestBasics
import Foundation
import Testing

@testable import FitIQImport

/// Activity in other apps' exports (steps, distance, energy, water, food, sleep, resting heart rate):
/// each app's files in their own shape, made into one total a metric a day, on the local day the file
/// writes; two streams of one app are never added, and a sample that breaks a rule is a named bad row.
struct ActivityReadersTests {
    static let berlin = ExportWalkTests.berlin
    static let options = ExportWalkTests.options

    static func read(_ path: String) throws -> [ImportedFile] {
        try ExportWalkTests.read("../activity/" + path)
    }

    /// The day totals of every file, as the import makes them.
    static func totals(_ files: [ImportedFile]) -> [DayTotal] {
        var days = ActivityDays()
        for imported in files { days.merge(imported.file.activity) }
        return days.totals()
    }

    static func total(_ totals: [DayTotal], _ metric: Metric, _ day: String) -> DayTotal? {
        totals.first { $0.metric == metric && $0.day == CalendarDate(parsing: day) }
    }

    static func value(_ totals: [DayTotal], _ metric: Metric, _ day: String) -> Double? {
        total(totals, metric, day).map { ($0.value * 10_000).rounded() / 10_000 }
    }

    /// The bad rows of the file whose name ends with `suffix`: line and rule.
    static func problems(_ files: [ImportedFile], _ suffix: String) -> [BadRow] {
        files.filter { $0.name.hasSuffix(suffix) }.flatMap(\.file.badRows)
    }

    @Test func fitbitMinutesSleepLogsAndRestingRate() throws {
        let files = try Self.read("fitbit")
        #expect(files.count == 7)
        #expect(files.allSatisfy { $0.file.format == ExportFormat.fitbit.name && $0.file.readings.isEmpty })
        let totals = Self.totals(files)
        // Minutes of local time (Berlin, the options' zone): 23:59 is the 1st, 00:00 the 2nd.
        #expect(Self.value(totals, .steps, "2024-03-01") == 130)
        #expect(Self.value(totals, .steps, "2024-03-02") == 12)
        #expect(Self.total(totals, .steps, "2024-03-01")?.app == .fitbit)
        // Centimetres: 7,500 + 12,500 cm is 0.2 km.
        #expect(Self.value(totals, .distance, "2024-03-01") == 0.2)
        #expect(Self.value(totals, .caloriesOut, "2024-03-01") == 3.75)
        // Very and moderately active minutes are added.
        #expect(Self.value(totals, .activeMinutes, "2024-03-01") == 35)
        // A resting rate of 0 or null is no reading.
        #expect(totals.filter { $0.metric == .restingHeartRate }.map(\.value) == [57.5])
        // Minutes asleep (430), not the time in bed (475), on dateOfSleep, logged when it ended.
        let night = try #require(Self.total(totals, .sleep, "2024-03-02"))
        #expect(abs(night.value - 430.0 / 60) < 1e-9)
        #expect(night.loggedAt == (try ExportWalkTests.instant("2024-03-02T06:05:30Z")))
        #expect(totals.filter { $0.metric == .sleep }.count == 1)
        // A negative minute and a log ending before it starts are named, not added.
        let steps = Self.problems(files, "steps-2024-03-01.json")
        #expect(steps.map(\.line) == [5])
        #expect(steps.allSatisfy { $0.isEntry })
        if case .value = steps.first?.rule {} else { Issue.record("a negative count is a value's bad row") }
        #expect(
            Self.problems(files, "sleep-2024-03-01.json") == [BadRow(line: 2, rule: .endsBeforeStart, isEntry: true)])
    }

    @Test func fitbitStillReadsItsWeightsBesideItsActivity() throws {
        let files = try ExportWalkTests.read("takeout/Takeout/Fitbit")
        #expect(files.count == 1)
        #expect(files.first?.file.activity.isEmpty == true)
        // A minute file's name tells its kind: the same document named otherwise is no Fitbit file.
        let minutes = Array(#"[{"dateTime":"03/01/24 08:00:00","value":"100"}]"#.utf8)
        #expect(ExportFormat.recognising(head: minutes, name: "steps-2024-03-01.json")?.name == "fitbit")
        #expect(ExportFormat.recognising(head: minutes, name: "altitude-2024-03-01.json") == nil)
    }

    @Test func googleFitStreamsAreNeverAddedAndSleepIsItsAsleepStages() throws {
        let files = try Self.read("google-fit")
        #expect(files.allSatisfy { $0.file.format == ExportFormat.googleFit.name })
        let totals = Self.totals(files)
        // The raw phone stream (5,000) and the merged estimate (5,600) of one day: the merged stands.
        let steps = try #require(Self.total(totals, .steps, "2024-03-01"))
        #expect(steps.value == 5600)
        #expect(steps.sources == 2)
        #expect(
            steps.source == "google-fit/derived:com.google.step_count.delta:com.google.android.gms:merge_step_deltas")
        // 23:30 UTC is 00:30 in Berlin: the next day's.
        #expect(Self.value(totals, .steps, "2024-03-02") == 800)
        #expect(Self.value(totals, .distance, "2024-03-01") == 2)
        #expect(Self.value(totals, .water, "2024-03-01") == 0.75)
        // Light 2.5 h, deep 1.5 h, REM 3 h; awake and out of bed are not sleep. The night crossing
        // midnight is the day it ends.
        #expect(Self.value(totals, .sleep, "2024-03-02") == 7)
        #expect(totals.filter { $0.metric == .sleep }.count == 1)
        // Heart rate is no resting rate.
        #expect(!totals.contains { $0.metric == .restingHeartRate })
        // A negative count and a segment ending before it starts are named, not added.
        let raw = Self.problems(files, "raw_com.google.step_count.delta_com.google.android.gms_pedometer.json")
        #expect(raw.map(\.line) == [3])
        #expect(
            Self.problems(files, "derived_com.google.sleep.segment_com.google.android.gms_merged.json") == [
                BadRow(line: 6, rule: .endsBeforeStart, isEntry: true)
            ])
        // The weights of the other fixture are read as before.
        let weights = try ExportWalkTests.read("takeout/Takeout/Fit")
        #expect(weights.first?.file.activity.isEmpty == false, "its steps are activity now")
        #expect(weights.first?.file.readings.count == 3)
    }

    @Test func googleFitMealsAndMoveMinutes() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/corpus/app-json/google-fit-meals.json")
        let file = try ExportFormat.googleFit.read(
            json: try Data(contentsOf: seed), name: "raw_com.google.nutrition.json", Self.options)
        let totals = file.activity.totals()
        // 11:00 UTC on 1 March; a meal's map gives its energy and nutrients in kcal and grams.
        #expect(Self.value(totals, .caloriesIn, "2024-03-01") == 650)
        #expect(Self.value(totals, .protein, "2024-03-01") == 30)
        #expect(Self.value(totals, .carbs, "2024-03-01") == 80)
        #expect(Self.value(totals, .fat, "2024-03-01") == 20)
        #expect(Self.value(totals, .activeMinutes, "2024-03-01") == 25)
        #expect(file.badRows.isEmpty)
    }

    @Test func garminDailySummariesAndNights() throws {
        let files = try Self.read("garmin")
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.file.format == ExportFormat.garmin.name && $0.file.readings.isEmpty })
        let totals = Self.totals(files)
        #expect(Self.value(totals, .steps, "2024-03-01") == 8500)
        #expect(Self.value(totals, .distance, "2024-03-01") == 6.4005)
        // The day's total energy (resting energy included), not its active part.
        #expect(Self.value(totals, .caloriesOut, "2024-03-01") == 2450)
        #expect(Self.value(totals, .caloriesOut, "2024-03-02") == 2100)
        #expect(Self.value(totals, .activeMinutes, "2024-03-01") == 30)
        #expect(totals.filter { $0.metric == .restingHeartRate }.map(\.value) == [54])
        // Deep, light and REM seconds (7 h), not the awake ones, on calendarDate.
        #expect(Self.value(totals, .sleep, "2024-03-02") == 7)
        #expect(totals.filter { $0.metric == .sleep }.count == 1)
        #expect(Self.value(totals, .steps, "2024-03-02") == nil)
        #expect(Self.problems(files, "UDSFile_2024-02-20_2024-05-30.json").map(\.line) == [2])
        #expect(
            Self.problems(files, "sleepData.json") == [BadRow(line: 2, rule: .endsBeforeStart, isEntry: true)])
        // The biometrics are read as before.
        #expect(try ExportWalkTests.read("garmin").first?.file.activity.isEmpty == true)
    }

    @Test func samsungDailyTrendSleepAndWater() throws {
        let files = try Self.read("samsung")
        #expect(files.count == 3)
        #expect(files.allSatisfy { $0.file.format == ExportFormat.samsungHealth.name })
        let totals = Self.totals(files)
        // The devices combined (source_type -2) is the day's only row read when there is one.
        let combined = try #require(Self.total(totals, .steps, "2024-03-01"))
        #expect(combined.value == 9000)
        #expect(combined.sources == 1)
        #expect(Self.value(totals, .distance, "2024-03-01") == 6.5)
        // Without it, each device's day, the one with the most standing: never their sum.
        let devices = try #require(Self.total(totals, .steps, "2024-03-02"))
        #expect(devices.value == 4500)
        #expect(devices.sources == 2)
        // day_time is the local day at UTC midnight, whatever the zone.
        let tokyo = ImportOptions(zone: .fixed(secondsEastOfUTC: 9 * 3_600))
        let far = Self.totals(try ExportWalkTests.read("../activity/samsung", tokyo))
        #expect(Self.value(far, .steps, "2024-03-01") == 9000)
        // 22:15 to 05:45 UTC, at UTC+0100: a night ending on the 2nd.
        #expect(Self.value(totals, .sleep, "2024-03-02") == 7.5)
        #expect(totals.filter { $0.metric == .sleep }.count == 1)
        // 23:30 UTC at UTC+0100 is the next day's water.
        #expect(Self.value(totals, .water, "2024-03-01") == 0.25)
        #expect(Self.value(totals, .water, "2024-03-02") == 0.5)
        let trend = Self.problems(files, "step_daily_trend.20240301120000.csv")
        #expect(trend.map(\.line) == [8])
        #expect(Self.problems(files, "sleep.20240301120000.csv") == [BadRow(line: 4, rule: .endsBeforeStart)])
        // The weight folder's step count file is still passed over.
        #expect(try ExportWalkTests.read("samsung").count == 1)
    }

    /// Health Connect's database: interval tables in the units it keeps (calories, litres, metres), a
    /// source per app, offsets per record, sleep stages.
    @Test func healthConnectsActivityTables() async throws {
        let folder = try TemporaryFolder("fitiq-app-export")
        defer { folder.remove() }
        let database = folder.file("health_connect_export.db")
        let program = """
            import sqlite3, sys, calendar, time
            def ms(text): return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M")) * 1000
            db = sqlite3.connect(sys.argv[1])
            interval = "row_id INTEGER PRIMARY KEY, start_time INTEGER, start_zone_offset INTEGER, end_time INTEGER, end_zone_offset INTEGER, app_info_id INTEGER"
            for table, columns in [("steps", "count INTEGER"), ("distance", "distance REAL"), ("total_calories_burned", "energy REAL"),
                                   ("hydration", "volume REAL"),
                                   ("nutrition", "energy REAL, protein REAL, total_carbohydrate REAL, total_fat REAL, meal_name TEXT"),
                                   ("sleep_session", "title TEXT")]:
                db.execute("CREATE TABLE %s_record_table (%s, %s)" % (table, interval, columns))
            db.execute("CREATE TABLE resting_heart_rate_record_table (row_id INTEGER PRIMARY KEY, time INTEGER, zone_offset INTEGER, app_info_id INTEGER, beats_per_minute INTEGER)")
            db.execute("CREATE TABLE sleep_stages_table (parent_key INTEGER, stage_start_time INTEGER, stage_end_time INTEGER, stage_type INTEGER)")
            def add(table, rows, columns):
                for start, end, app, values in rows:
                    named = "".join(", " + name for name in columns.split(", ") if values)
                    marks = "".join(", ?" for value in values)
                    db.execute("INSERT INTO %s_record_table (start_time, start_zone_offset, end_time, end_zone_offset, app_info_id%s) VALUES (?, 3600, ?, 3600, ?%s)"
                               % (table, named, marks), (ms(start), ms(end), app) + values)
            add("steps", [("2024-03-01T08:00", "2024-03-01T08:30", 1, (4000,)), ("2024-03-01T23:30", "2024-03-01T23:45", 1, (1000,)),
                          ("2024-03-01T09:00", "2024-03-01T10:00", 2, (6000,)), ("2024-03-01T12:00", "2024-03-01T11:00", 1, (500,)),
                          ("2024-03-01T13:00", "2024-03-01T13:10", 1, (-7,))], "count")
            add("distance", [("2024-03-01T08:00", "2024-03-01T08:30", 1, (2500.0,))], "distance")
            add("total_calories_burned", [("2024-03-01T00:00", "2024-03-01T22:59", 1, (2300000.0,))], "energy")
            add("hydration", [("2024-03-01T07:00", "2024-03-01T07:01", 1, (0.5,))], "volume")
            add("nutrition", [("2024-03-01T12:00", "2024-03-01T12:30", 1, (650000.0, 30.0, 80.0, 20.0))],
                "energy, protein, total_carbohydrate, total_fat")
            add("sleep_session", [("2024-03-01T22:00", "2024-03-02T06:00", 1, ()), ("2024-03-02T13:00", "2024-03-02T14:30", 1, ())], "title")
            db.executemany("INSERT INTO resting_heart_rate_record_table (time, zone_offset, app_info_id, beats_per_minute) VALUES (?, 3600, 1, ?)",
                           [(ms("2024-03-01T07:00"), 56), (ms("2024-03-01T20:00"), 58)])
            db.executemany("INSERT INTO sleep_stages_table VALUES (1, ?, ?, ?)",
                           [(ms("2024-03-01T22:00"), ms("2024-03-02T01:00"), 4), (ms("2024-03-02T01:00"), ms("2024-03-02T01:30"), 1),
                            (ms("2024-03-02T01:30"), ms("2024-03-02T03:00"), 5), (ms("2024-03-02T03:00"), ms("2024-03-02T05:30"), 6),
                            (ms("2024-03-02T05:30"), ms("2024-03-02T06:00"), 7)])
            db.commit()
            """
        try await ExportGenerator.python(["-c", program, database.path], log: folder.file("db.log"))
        let files = try ExportWalk().read(database.path, format: nil, options: Self.options, heightCm: nil)
        let file = try #require(files.first?.file)
        #expect(file.format == ExportFormat.healthConnect.name)
        let totals = Self.totals(files)
        // Two apps' steps of one day: the one with the most stands (6,000), never the sum.
        let steps = try #require(Self.total(totals, .steps, "2024-03-01"))
        #expect(steps.value == 6000)
        #expect(steps.sources == 2)
        #expect(steps.source == "health-connect/app 2")
        // 23:30 UTC at +01:00 is the 2nd's.
        #expect(Self.value(totals, .steps, "2024-03-02") == 1000)
        #expect(Self.value(totals, .distance, "2024-03-01") == 2.5)
        #expect(Self.value(totals, .caloriesOut, "2024-03-01") == 2300)
        #expect(Self.value(totals, .water, "2024-03-01") == 0.5)
        #expect(Self.value(totals, .caloriesIn, "2024-03-01") == 650)
        #expect(Self.value(totals, .protein, "2024-03-01") == 30)
        #expect(Self.value(totals, .carbs, "2024-03-01") == 80)
        #expect(Self.value(totals, .fat, "2024-03-01") == 20)
        #expect(totals.filter { $0.metric == .restingHeartRate }.map(\.value) == [58])
        // Light 3 h, deep 1.5 h, REM 2.5 h of the night's stages, and the afternoon's session without
        // stages, whole (1.5 h): 8.5 h on the 2nd.
        #expect(Self.value(totals, .sleep, "2024-03-02") == 8.5)
        #expect(totals.filter { $0.metric == .sleep }.count == 1)
        // Rows are counted in the order of their start: the one ending before it starts is the 3rd, the
        // negative count the 4th.
        #expect(
            file.badRows.map { "\($0.file ?? "") \($0.line) \($0.rule == .endsBeforeStart)" } == [
                "steps_record_table 3 true", "steps_record_table 4 false",
            ])
    }

    @Test func healthConnectsRecordsWithoutTheDatabase() {
        let start: Int64 = 1_709_330_400_000  // 2024-03-01T22:00:00Z
        let hour: Int64 = 3_600_000
        let file = HealthConnectDatabase.activity(
            of: [
                .init(
                    table: .steps, row: 1, values: [1200], start: start, end: start + hour, offsetSeconds: nil,
                    app: nil)
            ],
            [
                .init(
                    row: 1, start: start, end: start + 8 * hour, offsetSeconds: -5 * 3_600, app: 3,
                    stages: [
                        .init(start: start, end: start + 2 * hour, type: 1),
                        .init(start: start + 2 * hour, end: start + 8 * hour, type: 2),
                    ])
            ], zone: .fixed(secondsEastOfUTC: 3_600))
        let totals = file.activity.totals()
        // No offset: the zone's clock, 23:00 on the 1st.
        #expect(Self.value(totals, .steps, "2024-03-01") == 1200)
        // Awake is not asleep: 6 h, ending 01:00 at -05:00, on the 2nd.
        #expect(Self.value(totals, .sleep, "2024-03-02") == 6)
    }
}
