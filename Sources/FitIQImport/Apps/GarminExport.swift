import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Garmin Connect's `*userBioMetrics.json`: a list of biometrics, the weight in grams (0 is a failed
/// reading) with `timestampGMT`; entries without a weight are other biometrics.
enum GarminExport {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, name in
                head.contains("\"timestampGMT\"") || (head.contains("\"metaData\"") && name.contains("BioMetrics"))
            },
            read: { data, _, _, file in
                GarminExport.read(try JSONDocument.decode([GarminExport.Entry].self, from: data), into: &file)
            }))

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
}
