import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Garmin Connect's export (`DI_CONNECT/`):
/// - `DI-Connect-Wellness/*userBioMetrics.json`: a list of biometrics, the weight in grams (0 is a
///   failed reading) with `timestampGMT`; entries without a weight are other biometrics.
/// - `DI-Connect-Aggregator/UDSFile_*.json`: a day's summary each (`calendarDate`, `totalSteps`,
///   `totalDistanceMeters`, `totalKilocalories`, intensity minutes, `restingHeartRate`): one sample a day.
/// - `DI-Connect-Wellness/*_sleepData.json`: a night each, its deep, light and REM seconds asleep
///   (awake seconds are not sleep) on its `calendarDate`.
enum GarminExport {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, name in GarminExport.kind(name: name, head: head) != nil },
            read: { data, name, options, _, file in
                let head = String(decoding: data.prefix(ExportWalk.headBytes), as: UTF8.self)
                switch GarminExport.kind(name: name, head: head) ?? .biometrics {
                case .biometrics:
                    GarminExport.read(try JSONDocument.decode([GarminExport.Entry].self, from: data), into: &file)
                case .days:
                    GarminExport.read(
                        try JSONDocument.decode([GarminExport.Day].self, from: data), options, into: &file)
                case .sleep:
                    GarminExport.read(
                        try JSONDocument.decode([GarminExport.Night].self, from: data), options, into: &file)
                }
            }))

    /// What a file holds.
    enum Kind {
        case biometrics
        case days
        case sleep
    }

    /// The kind of the file named `name` whose first bytes are `head`, or `nil` when it is none of
    /// Garmin's read.
    static func kind(name: String, head: String) -> Kind? {
        if head.contains("\"sleepStartTimestampGMT\"")
            || (name.hasSuffix("sleepData.json") && head.contains("\"calendarDate\""))
        {
            return .sleep
        }
        if head.contains("\"calendarDate\"")
            && (head.contains("\"totalSteps\"") || head.contains("\"totalKilocalories\"") || name.hasPrefix("UDSFile"))
        {
            return .days
        }
        if head.contains("\"timestampGMT\"") || (head.contains("\"metaData\"") && name.contains("BioMetrics")) {
            return .biometrics
        }
        return nil
    }

    struct Entry: Decodable {
        struct Weight: Decodable {
            var weight: Double?
            var bodyFat: Double?
            var timestampGMT: Stamp?
        }
        var weight: Weight?
    }

    /// Garmin writes `timestampGMT` as milliseconds since 1970 or as GMT text (`2020-01-01T08:00:00.0`).
    enum Stamp: Decodable {
        case milliseconds(Double)
        case text(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .milliseconds(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        var date: Date? {
            switch self {
            case .milliseconds(let value): WrittenTime.milliseconds(value)
            case .text(let text): RFC3339.parse(text) ?? WrittenTime.localTime(text, zone: .utc)
            }
        }
    }

    static func read(_ entries: [Entry], into file: inout FileReadings) {
        for (index, entry) in entries.enumerated() {
            guard let reading = entry.weight, let grams = reading.weight, grams != 0 else { continue }
            let line = index + 1
            guard let at = reading.timestampGMT?.date else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            file.add(.weight, String(grams), factor: 0.001, at: at, line: line, isEntry: true)
            if let fat = reading.bodyFat, fat > 0 {
                file.add(.bodyFat, String(fat), factor: 1, at: at, line: line, isEntry: true)
            }
        }
    }

    struct Day: Decodable {
        var calendarDate: String?
        var totalSteps: JSONNumber?
        var totalDistanceMeters: JSONNumber?
        var totalKilocalories: JSONNumber?
        var moderateIntensityMinutes: JSONNumber?
        var vigorousIntensityMinutes: JSONNumber?
        var restingHeartRate: JSONNumber?
    }

    /// Each day's summary, at noon of its `calendarDate`: steps, distance (metres), energy burned (total,
    /// resting energy included, as Fitbit's), minutes of moderate and vigorous intensity, resting rate.
    static func read(_ days: [Day], _ options: ImportOptions, into file: inout FileReadings) {
        for (index, day) in days.enumerated() {
            let line = index + 1
            guard
                let date = day.calendarDate.flatMap({
                    CalendarDate(parsing: String($0.trimmingWhitespace().prefix(10)))
                })
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            let at = ActivityTime.noon(date, zone: options.zone)
            let moderate = day.moderateIntensityMinutes?.value ?? 0
            let vigorous = day.vigorousIntensityMinutes?.value ?? 0
            let values: [(Metric, JSONNumber?, Double)] = [
                (.steps, day.totalSteps, 1), (.distance, day.totalDistanceMeters, 0.001),
                (.caloriesOut, day.totalKilocalories, 1),
                (.activeMinutes, JSONNumber(moderate + vigorous, unreadable: false), 1),
                (.restingHeartRate, day.restingHeartRate, 1),
            ]
            for (metric, number, factor) in values {
                guard let number else { continue }
                guard !number.isUnreadable else {
                    file.refuse(line, .number(metric), isEntry: true)
                    continue
                }
                guard let value = number.value else { continue }
                file.addSample(metric, value * factor, at: at, line: line)
            }
        }
    }

    struct Night: Decodable {
        var calendarDate: String?
        var sleepStartTimestampGMT: Stamp?
        var sleepEndTimestampGMT: Stamp?
        var deepSleepSeconds: JSONNumber?
        var lightSleepSeconds: JSONNumber?
        var remSleepSeconds: JSONNumber?
    }

    /// Each night's deep, light and REM seconds, as hours on its `calendarDate`, logged when it ended.
    static func read(_ nights: [Night], _ options: ImportOptions, into file: inout FileReadings) {
        for (index, night) in nights.enumerated() {
            let line = index + 1
            let stages = [night.deepSleepSeconds, night.lightSleepSeconds, night.remSleepSeconds].compactMap { $0 }
            guard !stages.contains(where: \.isUnreadable) else {
                file.refuse(line, .number(.sleep), isEntry: true)
                continue
            }
            let seconds = stages.compactMap(\.value).reduce(0, +)
            guard seconds != 0 else { continue }
            guard
                let date = night.calendarDate.flatMap({
                    CalendarDate(parsing: String($0.trimmingWhitespace().prefix(10)))
                })
            else {
                file.refuse(line, .time, isEntry: true)
                continue
            }
            let end = night.sleepEndTimestampGMT?.date
            if let start = night.sleepStartTimestampGMT?.date, let end, start > end {
                file.refuse(line, .endsBeforeStart, isEntry: true)
                continue
            }
            let at = end.map { ActivityTime.on(date, at: $0) } ?? ActivityTime.noon(date, zone: options.zone)
            file.addSample(.sleep, seconds / 3600, at: at, line: line)
        }
    }
}
