import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Fitbit's `weight-YYYY-MM-DD.json` in Google Takeout: a list of `{logId, weight, bmi, fat, date,
/// time}`, local `date` (`MM/DD/YY`) and `time`. The weight's unit is not written: it comes from the
/// options, else from weight ÷ BMI (height² in kg, or about 2.2 times that in lb).
enum FitbitTakeout {
    /// How its entries are recognised and read.
    static let layout = ExportFormat.Layout.json(
        JSONLayout(
            recognise: { head, _ in head.contains("\"logId\"") && head.contains("\"weight\"") },
            read: { data, options, heightCm, file in
                try FitbitTakeout.read(
                    JSONDocument.decode([FitbitTakeout.Weight].self, from: data), options, heightCm: heightCm,
                    into: &file)
            }))

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
}
