#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Readings from the JSON files of Google Takeout (Fitbit's `weight-YYYY-MM-DD.json`, Google Fit's
/// `All Data/*.json`) and Garmin Connect's export (`*userBioMetrics.json`). Each file is a month or a
/// few thousand points at most: it is read whole (up to ``maximumBytes``), unlike the CSV files.
public enum MeasurementJSON {
    /// The largest JSON file read (Takeout's weight files are a few hundred KB).
    public static let maximumBytes = 64 << 20

    /// The format of a JSON file from its first bytes, or `nil`. `name` (its file name) only tells
    /// Garmin's file from others that hold the same keys.
    public static func format(ofHead head: [UInt8], name: String) -> MeasurementCSV.Format? {
        guard let first = head.first(where: { !(" \t\r\n".utf8.contains($0)) }),
            first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        else { return nil }
        let text = String(decoding: head, as: UTF8.self)
        if text.contains("\"Data Points\"") { return .googleFit }
        if text.contains("\"logId\""), text.contains("\"weight\"") { return .fitbit }
        if text.contains("\"timestampGMT\"") || (text.contains("\"metaData\"") && name.contains("BioMetrics")) {
            return .garmin
        }
        return nil
    }

    /// Reads a JSON file of `format`. `heightCm`, the profile's height when known, tells Fitbit's
    /// pounds from kilograms where `options` does not say.
    public static func read(
        _ data: Data, format: MeasurementCSV.Format, _ options: MeasurementCSV.Options, heightCm: Double? = nil
    ) throws(ImportError) -> MeasurementCSV {
        var file = MeasurementCSV(format: format)
        do {
            switch format {
            case .fitbit:
                let entries = try JSONDecoder().decode([FitbitWeight].self, from: data)
                try file.readFitbit(entries, options, heightCm: heightCm)
            case .googleFit:
                file.readGoogleFit(try JSONDecoder().decode(GoogleFitFile.self, from: data).points)
            case .garmin:
                file.readGarmin(try JSONDecoder().decode([GarminEntry].self, from: data))
            default:
                throw ImportError.unreadableJSON("not a JSON format")
            }
        } catch let error as ImportError {
            throw error
        } catch let error as DecodingError {
            throw .unreadableJSON(Self.describe(error))
        } catch {
            throw .unreadableJSON(String(describing: error))
        }
        return file
    }

    /// Where the text broke the shape expected: `[3].weight: expected a number`.
    static func describe(_ error: DecodingError) -> String {
        let (path, said): ([any CodingKey], String) =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                (context.codingPath, context.debugDescription)
            @unknown default: ([], "")
            }
        let place = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return TextSanitizer.sanitize(place.isEmpty ? said : "\(place): \(said)")
    }

    struct FitbitWeight: Decodable {
        var weight: Double?
        var bmi: Double?
        var fat: Double?
        var date: String?
        var time: String?
    }

    struct GoogleFitFile: Decodable {
        var points: [GoogleFitPoint]
        enum CodingKeys: String, CodingKey { case points = "Data Points" }
    }

    struct GoogleFitPoint: Decodable {
        struct FitValue: Decodable {
            struct Value: Decodable { var fpVal: Double? }
            var value: Value?
        }
        var dataTypeName: String?
        var startTimeNanos: Int64?
        var endTimeNanos: Int64?
        var fitValue: [FitValue]?
    }

    struct GarminEntry: Decodable {
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
            // Years 1 to 9999, as RFC 3339 text can say them: a larger number is no time.
            case .milliseconds(let value): abs(value) < 2.5e14 ? Date(timeIntervalSince1970: value / 1000) : nil
            case .text(let text): RFC3339.parse(text) ?? MeasurementCSV.localTime(text, zone: .utc)
            }
        }
    }
}

extension MeasurementCSV {
    /// Fitbit: local `date` (`MM/DD/YY`) and `time`; the weight's unit is not written, so it comes from
    /// the options, else from weight ÷ BMI (height² in kg, or about 2.2 times that in lb).
    fileprivate mutating func readFitbit(
        _ entries: [MeasurementJSON.FitbitWeight], _ options: Options, heightCm: Double?
    ) throws(ImportError) {
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
            inferredUnit = pounds == true ? "lb" : "kg"
        }
        let factor = pounds == true ? Self.kilogramsPerPound : 1
        for (index, entry) in entries.enumerated() {
            let line = index + 1
            guard let date = entry.date.flatMap(Self.dateParts), !date.isYearFirst,
                let day = CalendarDate(
                    parsing: DecimalText.padded(date.year, width: 4) + "-" + DecimalText.padded(date.first, width: 2)
                        + "-" + DecimalText.padded(date.second, width: 2)),
                let at = Self.localTime("\(day) \(entry.time ?? "12:00:00")", zone: options.zone)
            else {
                problems.append(Problem(line: line, rule: .time, isEntry: true))
                continue
            }
            if let weight = entry.weight {
                add(.weight, String(weight), factor: factor, at: at, line: line, isEntry: true)
            }
            if let fat = entry.fat, fat > 0 { add(.bodyFat, String(fat), factor: 1, at: at, line: line, isEntry: true) }
        }
    }

    /// Google Fit: the kind is the point's `dataTypeName`; times are nanoseconds since 1970.
    fileprivate mutating func readGoogleFit(_ points: [MeasurementJSON.GoogleFitPoint]) {
        let kinds: [String: (Metric, Double)] = [
            "com.google.weight": (.weight, 1), "com.google.body.fat.percentage": (.bodyFat, 1),
            "com.google.height": (.height, 100),
        ]
        for (index, point) in points.enumerated() {
            guard let name = point.dataTypeName, let (metric, factor) = kinds[name] else { continue }
            let line = index + 1
            guard let nanos = point.endTimeNanos ?? point.startTimeNanos, nanos > 0,
                let value = point.fitValue?.first?.value?.fpVal
            else {
                problems.append(Problem(line: line, rule: .number(metric), isEntry: true))
                continue
            }
            let at = Date(timeIntervalSince1970: Double(nanos / 1_000_000) / 1000)
            add(metric, String(value), factor: factor, at: at, line: line, isEntry: true)
        }
    }

    /// Garmin: the weight is in grams and 0 is a failed reading; entries without one are other
    /// biometrics.
    fileprivate mutating func readGarmin(_ entries: [MeasurementJSON.GarminEntry]) {
        for (index, entry) in entries.enumerated() {
            guard let reading = entry.weight, let grams = reading.weight, grams != 0 else { continue }
            let line = index + 1
            guard let at = reading.timestampGMT?.date else {
                problems.append(Problem(line: line, rule: .time, isEntry: true))
                continue
            }
            add(.weight, String(grams), factor: 0.001, at: at, line: line, isEntry: true)
            if let fat = reading.bodyFat, fat > 0 {
                add(.bodyFat, String(fat), factor: 1, at: at, line: line, isEntry: true)
            }
        }
    }
}
