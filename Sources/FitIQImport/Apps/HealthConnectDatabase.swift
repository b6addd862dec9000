import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Android Health Connect's export: a SQLite database (alone, or in a zip). Body measurements from
/// `weight_record_table.weight` (grams), `body_fat_record_table.percentage` and
/// `height_record_table.height` (metres), each with `time` in milliseconds since 1970, UTC. Activity
/// from the interval tables (`start_time`, `end_time` in ms, `start_zone_offset` in seconds, the app that
/// wrote it as `app_info_id`), in the units Health Connect keeps: steps `count`, `distance` in metres,
/// `total_calories_burned_record_table.energy` and nutrition's `energy` in calories (1/1000 kcal),
/// hydration's `volume` in litres, nutrition's `protein`, `total_carbohydrate` and `total_fat` in grams;
/// `resting_heart_rate_record_table.beats_per_minute` at `time` (`zone_offset`); sleep sessions
/// (`sleep_session_record_table`) and their stages (`sleep_stages_table`). The records are read by the
/// adapter from the tables; turning them into readings is pure (no SQLite).
public enum HealthConnectDatabase {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.database(
        DatabaseLayout(read: { path, format, options in
            let body = HealthConnectDatabase.Table.allCases.map {
                (sql: "SELECT \($0.valueColumn), time FROM \($0.rawValue) ORDER BY time", columns: Int32(2))
            }
            let activity = HealthConnectDatabase.ActivityTable.allCases.map {
                (sql: $0.query, columns: Int32($0.valueColumns.count + 4))
            }
            let sleep = [
                (sql: HealthConnectDatabase.sessionQuery, columns: Int32(5)),
                (sql: HealthConnectDatabase.stageQuery, columns: Int32(4)),
            ]
            guard let tables = try LibSQLite3.load().rows(at: path, queries: body + activity + sleep) else {
                return nil
            }
            let records = zip(HealthConnectDatabase.Table.allCases, tables).flatMap { table, rows in
                rows.enumerated().map { index, row in
                    HealthConnectDatabase.Record(
                        table: table, row: index + 1, value: row[0], milliseconds: row[1].map { Int64($0) })
                }
            }
            let activityTables = tables.dropFirst(body.count)
            let samples = zip(HealthConnectDatabase.ActivityTable.allCases, activityTables).flatMap { table, rows in
                rows.enumerated().map { index, row in
                    HealthConnectDatabase.ActivityRecord(table: table, row: index + 1, columns: row)
                }
            }
            let sessions = HealthConnectDatabase.sessions(
                tables.dropFirst(body.count + activity.count).first ?? [],
                stages: tables.dropFirst(body.count + activity.count + 1).first ?? [])
            var file = format.emptyReadings()
            HealthConnectDatabase.read(records, into: &file)
            HealthConnectDatabase.read(samples, sessions, zone: options.zone, into: &file)
            return file
        }))

    /// The table a record comes from, and what its value is.
    public enum Table: String, Sendable, CaseIterable {
        case weight = "weight_record_table"
        case bodyFat = "body_fat_record_table"
        case height = "height_record_table"

        /// The column holding the value.
        public var valueColumn: String {
            switch self {
            case .weight: "weight"
            case .bodyFat: "percentage"
            case .height: "height"
            }
        }

        var metric: Metric {
            switch self {
            case .weight: .weight
            case .bodyFat: .bodyFat
            case .height: .height
            }
        }

        /// What one of the column's units is in the metric's unit.
        var factor: Double {
            switch self {
            case .weight: 0.001
            case .bodyFat: 1
            case .height: 100
            }
        }
    }

    /// One row of a table.
    public struct Record: Sendable, Equatable {
        public var table: Table
        /// The record's row in its table, from 1, for the message that names it.
        public var row: Int
        public var value: Double?
        public var milliseconds: Int64?

        public init(table: Table, row: Int, value: Double?, milliseconds: Int64?) {
            self.table = table
            self.row = row
            self.value = value
            self.milliseconds = milliseconds
        }
    }

    /// Readings of `records`; a record without a value or a time is named by its table and row.
    public static func read(_ records: [Record], into file: inout FileReadings) {
        for record in records {
            let metric = record.table.metric
            guard let milliseconds = record.milliseconds, let at = WrittenTime.milliseconds(Double(milliseconds))
            else {
                file.badRows.append(BadRow(line: record.row, rule: .time, isEntry: true, file: record.table.rawValue))
                continue
            }
            guard let value = record.value else {
                file.badRows.append(
                    BadRow(line: record.row, rule: .number(metric), isEntry: true, file: record.table.rawValue))
                continue
            }
            file.add(metric, String(value), factor: record.table.factor, at: at, line: record.row, isEntry: true)
        }
    }

    /// Readings of `records`, for the fuzz target and the tests.
    public static func readings(of records: [Record]) -> FileReadings {
        var file = ExportFormat.healthConnect.emptyReadings()
        read(records, into: &file)
        return file
    }

    /// A table of activity, and what its values are.
    public enum ActivityTable: String, Sendable, CaseIterable {
        case steps = "steps_record_table"
        case distance = "distance_record_table"
        case totalCaloriesBurned = "total_calories_burned_record_table"
        case hydration = "hydration_record_table"
        case nutrition = "nutrition_record_table"
        case restingHeartRate = "resting_heart_rate_record_table"

        /// The columns holding its values, each a metric's, with what one of its units is in the metric's.
        public var valueColumns: [(column: String, metric: Metric, factor: Double)] {
            switch self {
            case .steps: [("count", .steps, 1)]
            case .distance: [("distance", .distance, 0.001)]
            case .totalCaloriesBurned: [("energy", .caloriesOut, 0.001)]
            case .hydration: [("volume", .water, 1)]
            case .nutrition:
                [
                    ("energy", .caloriesIn, 0.001), ("protein", .protein, 1), ("total_carbohydrate", .carbs, 1),
                    ("total_fat", .fat, 1),
                ]
            case .restingHeartRate: [("beats_per_minute", .restingHeartRate, 1)]
            }
        }

        /// Its values, then the start, the end (ms), the offset of the start (s) and the app of each row.
        var query: String {
            let values = valueColumns.map(\.column).joined(separator: ", ")
            return self == .restingHeartRate
                ? "SELECT \(values), time, time, zone_offset, app_info_id FROM \(rawValue) ORDER BY time"
                : "SELECT \(values), start_time, end_time, start_zone_offset, app_info_id FROM \(rawValue) ORDER BY start_time"
        }
    }

    /// One row of an activity table.
    public struct ActivityRecord: Sendable, Equatable {
        public var table: ActivityTable
        /// The record's row in its table, from 1.
        public var row: Int
        /// Its values, in the order of ``ActivityTable/valueColumns``.
        public var values: [Double?]
        /// Milliseconds since 1970.
        public var start: Int64?
        public var end: Int64?
        /// The offset of the clock it was taken on, in seconds east of UTC.
        public var offsetSeconds: Int?
        /// The app that wrote it (`app_info_id`).
        public var app: Int64?

        public init(
            table: ActivityTable, row: Int, values: [Double?], start: Int64?, end: Int64?, offsetSeconds: Int?,
            app: Int64?
        ) {
            self.table = table
            self.row = row
            self.values = values
            self.start = start
            self.end = end
            self.offsetSeconds = offsetSeconds
            self.app = app
        }

        /// A row as the query selects it: the values, then start, end, offset and app.
        init(table: ActivityTable, row: Int, columns: [Double?]) {
            let count = table.valueColumns.count
            let rest = columns.dropFirst(count).map { $0.flatMap(HealthConnectDatabase.integer) }
            self.init(
                table: table, row: row, values: Array(columns.prefix(count)), start: rest.first ?? nil,
                end: rest.dropFirst().first ?? nil, offsetSeconds: (rest.dropFirst(2).first ?? nil).map { Int($0) },
                app: rest.dropFirst(3).first ?? nil)
        }
    }

    /// A sleep session and its stages.
    public struct SleepSession: Sendable, Equatable {
        /// The session's row in its table, from 1.
        public var row: Int
        public var start: Int64?
        public var end: Int64?
        /// The offset of the clock at its end, in seconds east of UTC.
        public var offsetSeconds: Int?
        public var app: Int64?
        public var stages: [SleepStage]

        public init(row: Int, start: Int64?, end: Int64?, offsetSeconds: Int?, app: Int64?, stages: [SleepStage]) {
            self.row = row
            self.start = start
            self.end = end
            self.offsetSeconds = offsetSeconds
            self.app = app
            self.stages = stages
        }
    }

    /// A stage of a night: `type` as Health Connect numbers them (1 awake, 2 asleep, 3 out of bed,
    /// 4 light, 5 deep, 6 REM, 7 awake in bed).
    public struct SleepStage: Sendable, Equatable {
        public var start: Int64?
        public var end: Int64?
        public var type: Int?

        public init(start: Int64?, end: Int64?, type: Int?) {
            self.start = start
            self.end = end
            self.type = type
        }
    }

    /// The stage types that are asleep: sleeping, light, deep, REM.
    public static let asleepStages: Set<Int> = [2, 4, 5, 6]

    static let sessionQuery =
        "SELECT row_id, start_time, end_time, end_zone_offset, app_info_id FROM sleep_session_record_table ORDER BY start_time"
    static let stageQuery =
        "SELECT parent_key, stage_start_time, stage_end_time, stage_type FROM sleep_stages_table ORDER BY stage_start_time"

    /// A whole number a column holds (`nil` past what milliseconds since 1970 need).
    static func integer(_ value: Double) -> Int64? {
        value.isFinite && abs(value) < 9e15 ? Int64(value) : nil
    }

    /// The sessions, each with its stages (`parent_key` is the session's `row_id`).
    static func sessions(_ rows: [[Double?]], stages: [[Double?]]) -> [SleepSession] {
        var byParent: [Int64: [SleepStage]] = [:]
        for stage in stages {
            guard let parent = stage.first.flatMap({ $0.flatMap(integer) }) else { continue }
            let numbers = stage.dropFirst().map { $0.flatMap(integer) }
            byParent[parent, default: []].append(
                SleepStage(
                    start: numbers.first ?? nil, end: numbers.dropFirst().first ?? nil,
                    type: (numbers.dropFirst(2).first ?? nil).map { Int(clamping: $0) }))
        }
        return rows.enumerated().map { index, row in
            let numbers = row.map { $0.flatMap(integer) }
            let id = numbers.first ?? nil
            return SleepSession(
                row: index + 1, start: numbers.dropFirst().first ?? nil, end: numbers.dropFirst(2).first ?? nil,
                offsetSeconds: (numbers.dropFirst(3).first ?? nil).map { Int(clamping: $0) },
                app: numbers.dropFirst(4).first ?? nil, stages: id.flatMap { byParent[$0] } ?? [])
        }
    }

    /// A day's amounts and readings of `records`, and the nights of `sessions`: a session with stages
    /// is its asleep stages, one without is asleep whole. Each app that wrote them is a source of its
    /// own; a sample without an offset is on the clock of `zone`.
    public static func read(
        _ records: [ActivityRecord], _ sessions: [SleepSession], zone: LocalZone, into file: inout FileReadings
    ) {
        for record in records {
            let table = record.table.rawValue
            guard let start = record.start.flatMap({ WrittenTime.milliseconds(Double($0)) }) else {
                file.badRows.append(BadRow(line: record.row, rule: .time, isEntry: true, file: table))
                continue
            }
            let at = local(start, record.offsetSeconds, zone)
            let stream = record.app.map { "app \($0)" } ?? ""
            if let end = record.end.flatMap({ WrittenTime.milliseconds(Double($0)) }), end < start {
                file.badRows.append(BadRow(line: record.row, rule: .endsBeforeStart, isEntry: true, file: table))
                continue
            }
            for (value, column) in zip(record.values, record.table.valueColumns) {
                guard let value else { continue }
                naming(table, in: &file) { file in
                    file.addSample(column.metric, value * column.factor, at: at, stream: stream, line: record.row)
                }
            }
        }
        let table = "sleep_session_record_table"
        for session in sessions {
            guard let start = session.start.flatMap({ WrittenTime.milliseconds(Double($0)) }),
                let end = session.end.flatMap({ WrittenTime.milliseconds(Double($0)) })
            else {
                file.badRows.append(BadRow(line: session.row, rule: .time, isEntry: true, file: table))
                continue
            }
            let stream = session.app.map { "app \($0)" } ?? ""
            guard !session.stages.isEmpty else {
                naming(table, in: &file) { file in
                    file.addAsleep(
                        from: start, to: local(end, session.offsetSeconds, zone), stream: stream, line: session.row)
                }
                continue
            }
            for stage in session.stages where stage.type.map(asleepStages.contains) == true {
                guard let from = stage.start.flatMap({ WrittenTime.milliseconds(Double($0)) }),
                    let to = stage.end.flatMap({ WrittenTime.milliseconds(Double($0)) })
                else {
                    file.badRows.append(BadRow(line: session.row, rule: .time, isEntry: true, file: table))
                    continue
                }
                naming(table, in: &file) { file in
                    file.addAsleep(
                        from: from, to: local(to, session.offsetSeconds, zone), stream: stream, line: session.row)
                }
            }
        }
    }

    /// `at` on the clock `offset` seconds east of UTC, else of `zone`.
    static func local(_ at: Date, _ offset: Int?, _ zone: LocalZone) -> LocalInstant {
        guard let offset, abs(offset) <= 18 * 3_600 else { return LocalInstant(at, in: zone) }
        return LocalInstant(at, offsetSeconds: offset)
    }

    /// Runs `add`, naming `table` as the file of the bad rows it adds.
    static func naming(_ table: String, in file: inout FileReadings, _ add: (inout FileReadings) -> Void) {
        let before = file.badRows.count
        add(&file)
        for index in before..<file.badRows.count { file.badRows[index].file = table }
    }

    /// The day's amounts, readings and nights of `records` and `sessions`, for the tests.
    public static func activity(
        of records: [ActivityRecord], _ sessions: [SleepSession] = [], zone: LocalZone = .utc
    ) -> FileReadings {
        var file = ExportFormat.healthConnect.emptyReadings()
        read(records, sessions, zone: zone, into: &file)
        return file
    }
}
