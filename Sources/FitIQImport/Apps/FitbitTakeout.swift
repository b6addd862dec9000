import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fitbit's files in Google Takeout (`Fitbit/Global Export Data/`), each told by its name and keys:
/// - `weight-YYYY-MM-DD.json`: a list of `{logId, weight, bmi, fat, date, time}`, local `date`
///   (`MM/DD/YY`) and `time`. The weight's unit is not written: it comes from the options, else from
///   weight ÷ BMI (height² in kg, or about 2.2 times that in lb).
/// - `steps-`, `distance-` (centimetres), `calories-` (kcal burned, basal energy included),
///   `very_active_minutes-` and `moderately_active_minutes-`: lists of `{dateTime, value}`, a minute's
///   or a day's amount as text, at a local `MM/DD/YY HH:mm:ss`.
/// - `resting_heart_rate-`: `{dateTime, value: {date, value, error}}`, a value of 0 or `null` is none.
/// - `sleep-`: sleep logs; a night is its `minutesAsleep` (never the time in bed) on `dateOfSleep`.
enum FitbitTakeout {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, name in FitbitTakeout.kind(name: name, head: head) != nil },
            read: { data, name, options, heightCm, file in
                let head = String(decoding: data.prefix(ExportWalk.headBytes), as: UTF8.self)
                switch FitbitTakeout.kind(name: name, head: head) ?? .weight {
                case .weight:
                    try FitbitTakeout.read(
                        JSONDocument.decode([FitbitTakeout.Weight].self, from: data), options, heightCm: heightCm,
                        into: &file)
                case .amounts(let metric, let factor):
                    FitbitTakeout.read(
                        try JSONDocument.decode([FitbitTakeout.Amount].self, from: data), metric, factor: factor,
                        options, into: &file)
                case .restingHeartRate:
                    FitbitTakeout.read(
                        try JSONDocument.decode([FitbitTakeout.RestingHeartRate].self, from: data), options,
                        into: &file)
                case .sleep:
                    FitbitTakeout.read(
                        try JSONDocument.decode([FitbitTakeout.Sleep].self, from: data), options, into: &file)
                }
            }))

    /// What a file holds.
    enum Kind: Equatable {
        case weight
        /// A list of amounts of `metric`, each times `factor` into its unit.
        case amounts(Metric, factor: Double)
        case restingHeartRate
        case sleep
    }

    /// The files of amounts, by the start of their name.
    static let amountFiles: [(prefix: String, metric: Metric, factor: Double)] = [
        ("steps-", .steps, 1), ("distance-", .distance, 0.000_01), ("calories-", .caloriesOut, 1),
        ("very_active_minutes-", .activeMinutes, 1), ("moderately_active_minutes-", .activeMinutes, 1),
    ]

    /// The kind of the file named `name` whose first bytes are `head`, or `nil` when it is none of
    /// Fitbit's read.
    static func kind(name: String, head: String) -> Kind? {
        if head.contains("\"logId\"") && head.contains("\"weight\"") { return .weight }
        if head.contains("\"dateOfSleep\"") { return .sleep }
        guard head.contains("\"dateTime\"") else { return nil }
        if name.hasPrefix("resting_heart_rate-") { return .restingHeartRate }
        return amountFiles.first { name.hasPrefix($0.prefix) }.map { .amounts($0.metric, factor: $0.factor) }
    }

    struct Weight: Decodable {
        var weight: Double?
        var bmi: Double?
        var fat: Double?
        var date: String?
        var time: String?
    }

    static func read(_ entries: [Weight], _ options: ImportOptions, heightCm: Double?, into file: inout FileReadings)
        throws(ImportError)
    {
        var pounds = options.unit.map { _ in options.pounds }
        if pounds == nil {
            let ratios = entries.compactMap { entry -> Double? in
                guard let weight = entry.weight, let bmi = entry.bmi, bmi > 0, weight > 0 else { return nil }
                return weight / bmi
            }.sorted()
            guard !ratios.isEmpty else { throw entries.isEmpty ? .empty : .unitUnclear }
            let median = ratios[ratios.count / 2]
            if let heightCm, heightCm > 0 {
                pounds = median / ((heightCm / 100) * (heightCm / 100)) > 1.6
            } else {
                // In kg the ratio is the height² (a 2.05 m person: 4.2); in lb 2.2 times it.
                pounds = median > 4.2
            }
            file.inferredUnit = pounds == true ? "lb" : "kg"
        }
        let factor = pounds == true ? FileReadings.kilogramsPerPound : 1
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            guard let date = entry.date.flatMap(WrittenTime.dateParts), !date.isYearFirst,
                let day = WrittenTime.day(year: date.year, month: date.first, day: date.second),
                let at = WrittenTime.localTime("\(day) \(entry.time ?? "12:00:00")", zone: options.zone)
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            if let weight = entry.weight {
                file.add(.weight, String(weight), factor: factor, at: at, line: line, isEntry: true)
            }
            if let fat = entry.fat, fat > 0 {
                file.add(.bodyFat, String(fat), factor: 1, at: at, line: line, isEntry: true)
            }
        }
    }

    struct Amount: Decodable {
        var dateTime: String?
        var value: JSONNumber?
    }

    /// A minute's or a day's amounts, each on the local day it is written at.
    static func read(
        _ entries: [Amount], _ metric: Metric, factor: Double, _ options: ImportOptions, into file: inout FileReadings
    ) {
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            guard let value = entry.value, !value.isUnreadable else {
                if entry.value?.isUnreadable == true { file.refuse(line, .number(metric), isEntry: true) }
                continue
            }
            guard let number = value.value, number != 0 else { continue }
            guard let written = entry.dateTime.flatMap(ActivityTime.monthFirst),
                let at = ActivityTime.wall(written.day, second: written.second, zone: options.zone)
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            file.addSample(metric, number * factor, at: at, line: line)
        }
    }

    struct RestingHeartRate: Decodable {
        struct Value: Decodable {
            var value: JSONNumber?
        }
        var dateTime: String?
        var value: Value?
    }

    /// A day's resting heart rate; 0 or `null` is a day without one.
    static func read(_ entries: [RestingHeartRate], _ options: ImportOptions, into file: inout FileReadings) {
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            if entry.value?.value?.isUnreadable == true {
                file.refuse(line, .number(.restingHeartRate), isEntry: true)
                continue
            }
            guard let bpm = entry.value?.value?.value, bpm != 0 else { continue }
            guard let written = entry.dateTime.flatMap(ActivityTime.monthFirst),
                let at = ActivityTime.wall(written.day, second: written.second, zone: options.zone)
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            file.addSample(.restingHeartRate, bpm, at: at, line: line)
        }
    }

    struct Sleep: Decodable {
        var dateOfSleep: String?
        var startTime: String?
        var endTime: String?
        var minutesAsleep: JSONNumber?
    }

    /// Each sleep log's time asleep, on its `dateOfSleep`, logged when it ended; a nap is a log too,
    /// added to the night of its day.
    static func read(_ entries: [Sleep], _ options: ImportOptions, into file: inout FileReadings) {
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            guard let minutes = entry.minutesAsleep, !minutes.isUnreadable else {
                if entry.minutesAsleep?.isUnreadable == true { file.refuse(line, .number(.sleep), isEntry: true) }
                continue
            }
            guard let asleep = minutes.value, asleep != 0 else { continue }
            guard let day = entry.dateOfSleep.flatMap({ CalendarDate(parsing: $0.trimmingWhitespace()) }),
                let end = entry.endTime.flatMap({ WrittenTime.localTime($0, zone: options.zone) })
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            if let start = entry.startTime.flatMap({ WrittenTime.localTime($0, zone: options.zone) }), start > end {
                file.refuse(line, .endsBeforeStart, isEntry: true)
                continue
            }
            file.addSample(.sleep, asleep / 60, at: ActivityTime.on(day, at: end), line: line)
        }
    }
}
