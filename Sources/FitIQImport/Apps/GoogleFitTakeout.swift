import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Google Fit's `All Data/*.json` in Google Takeout: `{"Data Source": …, "Data Points": [...]}`, the kind
/// of each point its `dataTypeName`, times in nanoseconds since 1970 (UTC: a sample's local day is the
/// one of the options' zone). Each file is one data source (the phone's raw steps, the merged estimate
/// `merge_step_deltas`, …): sources are never added together, the one with the most of a day stands.
/// Heart rate (`com.google.heart_rate.bpm`) is not read: Google Fit has no resting rate.
enum GoogleFitTakeout {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, _ in head.contains("\"Data Points\"") },
            read: { data, name, options, _, file in
                let document = try JSONDocument.decode(GoogleFitTakeout.File.self, from: data)
                let stream =
                    document.source.map { TextSanitizer.sanitize(String($0.prefix(200))) }
                    ?? (name.hasSuffix(".json") ? String(name.dropLast(5)) : name)
                GoogleFitTakeout.read(document.points, stream: stream, options, into: &file)
            }))

    struct File: Decodable {
        var source: String?
        var points: [Point]
        enum CodingKeys: String, CodingKey {
            case source = "Data Source"
            case points = "Data Points"
        }
    }

    struct Point: Decodable {
        struct FitValue: Decodable {
            struct Value: Decodable {
                struct Entry: Decodable {
                    struct Number: Decodable { var fpVal: Double? }
                    var key: String?
                    var value: Number?
                }
                var fpVal: Double?
                var intVal: Int64?
                var mapVal: [Entry]?
            }
            var value: Value?
        }
        var dataTypeName: String?
        var startTimeNanos: Int64?
        var endTimeNanos: Int64?
        var fitValue: [FitValue]?

        var number: Double? {
            guard let value = fitValue?.first?.value else { return nil }
            return value.fpVal ?? value.intVal.map(Double.init)
        }
    }

    /// The kinds of point read as readings, with the factor into the metric's unit.
    static let kinds: [String: (Metric, Double)] = [
        "com.google.weight": (.weight, 1), "com.google.body.fat.percentage": (.bodyFat, 1),
        "com.google.height": (.height, 100),
    ]

    /// The kinds of point read as a day's amounts, with the factor into the metric's unit.
    static let amounts: [String: (Metric, Double)] = [
        "com.google.step_count.delta": (.steps, 1), "com.google.distance.delta": (.distance, 0.001),
        "com.google.calories.expended": (.caloriesOut, 1), "com.google.hydration": (.water, 1),
        "com.google.active_minutes": (.activeMinutes, 1),
    ]

    /// A meal's nutrients (`com.google.nutrition`'s map), by key.
    static let nutrients: [String: Metric] = [
        "calories": .caloriesIn, "protein": .protein, "carbs.total": .carbs, "fat.total": .fat,
    ]

    /// The sleep stages (`com.google.sleep.segment`) that are asleep: sleep, light, deep, REM (not
    /// awake, out of bed).
    static let asleepStages: Set<Int64> = [2, 4, 5, 6]

    static func read(_ points: [Point], stream: String, _ options: ImportOptions, into file: inout FileReadings) {
        for (index, point) in points.enumerated() {
            guard let name = point.dataTypeName else { continue }
            let line = index + 1
            if let (metric, factor) = kinds[name] {
                guard let nanos = point.endTimeNanos ?? point.startTimeNanos, nanos > 0,
                    let value = point.fitValue?.first?.value?.fpVal
                else {
                    file.refuse(line, .number(metric), isEntry: true)
                    continue
                }
                file.add(metric, String(value), factor: factor, at: instant(nanos), line: line, isEntry: true)
            } else if let (metric, factor) = amounts[name] {
                guard let value = point.number else {
                    file.refuse(line, .number(metric), isEntry: true)
                    continue
                }
                guard let start = sampleTimes(point, line, &file) else { continue }
                file.addSample(
                    metric, value * factor, at: LocalInstant(start.0, in: options.zone), stream: stream, line: line)
            } else if name == "com.google.nutrition" {
                guard let start = sampleTimes(point, line, &file) else { continue }
                let at = LocalInstant(start.0, in: options.zone)
                for entry in point.fitValue?.first?.value?.mapVal ?? [] {
                    guard let key = entry.key, let metric = nutrients[key], let value = entry.value?.fpVal else {
                        continue
                    }
                    file.addSample(metric, value, at: at, stream: stream, line: line)
                }
            } else if name == "com.google.sleep.segment" {
                guard let stage = point.fitValue?.first?.value?.intVal else {
                    file.refuse(line, .number(.sleep), isEntry: true)
                    continue
                }
                guard asleepStages.contains(stage), let (start, end) = sampleTimes(point, line, &file) else { continue }
                file.addAsleep(from: start, to: LocalInstant(end, in: options.zone), stream: stream, line: line)
            }
        }
    }

    /// A point's start and end; a point without them is a bad entry.
    static func sampleTimes(_ point: Point, _ line: Int, _ file: inout FileReadings) -> (Date, Date)? {
        guard let startNanos = point.startTimeNanos ?? point.endTimeNanos, startNanos > 0 else {
            file.refuse(line, .time, isEntry: true)
            return nil
        }
        return (instant(startNanos), instant(point.endTimeNanos ?? startNanos))
    }

    static func instant(_ nanos: Int64) -> Date {
        Date(timeIntervalSince1970: Double(nanos / 1_000_000) / 1000)
    }
}
