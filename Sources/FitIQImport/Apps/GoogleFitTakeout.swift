import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Google Fit's `All Data/*.json` in Google Takeout: `{"Data Points": [...]}`, the kind of each point
/// its `dataTypeName`, times in nanoseconds since 1970.
enum GoogleFitTakeout {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, _ in head.contains("\"Data Points\"") },
            read: { data, _, _, file in
                GoogleFitTakeout.read(
                    try JSONDocument.decode(GoogleFitTakeout.File.self, from: data).points, into: &file)
            }))

    struct File: Decodable {
        var points: [Point]
        enum CodingKeys: String, CodingKey { case points = "Data Points" }
    }

    struct Point: Decodable {
        struct FitValue: Decodable {
            struct Value: Decodable { var fpVal: Double? }
            var value: Value?
        }
        var dataTypeName: String?
        var startTimeNanos: Int64?
        var endTimeNanos: Int64?
        var fitValue: [FitValue]?
    }

    /// The kinds of point read, with the factor into the metric's unit.
    static let kinds: [String: (Metric, Double)] = [
        "com.google.weight": (.weight, 1), "com.google.body.fat.percentage": (.bodyFat, 1),
        "com.google.height": (.height, 100),
    ]

    static func read(_ points: [Point], into file: inout FileReadings) {
        for (index, point) in points.enumerated() {
            guard let name = point.dataTypeName, let (metric, factor) = kinds[name] else { continue }
            let line = index + 1
            guard let nanos = point.endTimeNanos ?? point.startTimeNanos, nanos > 0,
                let value = point.fitValue?.first?.value?.fpVal
            else {
                file.refuse(line, .number(metric), isEntry: true)
                continue
            }
            let at = Date(timeIntervalSince1970: Double(nanos / 1_000_000) / 1000)
            file.add(metric, String(value), factor: factor, at: at, line: line, isEntry: true)
        }
    }
}
