// libFuzzer target `app-json`: the JSON files `import` reads, every JSON format of FitIQImport's list
// (Fitbit's and Google Fit's in Google Takeout, Garmin Connect's biometrics, daily summaries and sleep,
// fitiq-tui's own `export --json`).
//
// The input is read as each JSON format in turn, under each file name that tells a kind of file apart
// (Fitbit's `steps-…`, Garmin's `UDSFile_…`). The reader may refuse the file whole (text that is no
// JSON of the format, or weights whose unit cannot be told); otherwise every reading it accepts must be
// in its metric's range at a usable instant, every day's activity total must be a finite amount not
// below zero, every problem must name an entry of the file, every sentence must be said, and nothing
// may trap, hang or blow up memory.
import FitIQCore
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The file names that tell a kind of file apart, each read once (the first two with and without a height).
private let names = [
    "weight-2024-03-01.json", "userBioMetrics.json", "steps-2024-03-01.json", "distance-2024-03-01.json",
    "calories-2024-03-01.json", "very_active_minutes-2024-03-01.json", "resting_heart_rate-2024-03-01.json",
    "sleep-2024-03-01.json", "UDSFile_1.json", "1_sleepData.json", "derived_com.google.step_count.delta.json",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let head = Array(data.prefix(4_096))
    _ = ExportFormat.recognising(head: head, name: "userBioMetrics.json")
    for format in ExportFormat.all {
        guard case .json = format.layout else { continue }
        for (height, name) in zip([nil, 180.0] + Array(repeating: nil, count: names.count - 2), names) {
            let options = ImportOptions(zone: .fixed(secondsEastOfUTC: 3_600))
            let file: FileReadings
            do {
                file = try format.read(json: data, name: name, options, heightCm: height)
            } catch let error as ImportError {
                precondition(!error.description.isEmpty)
                continue
            } catch {
                preconditionFailure("a reader threw what is not an ImportError: \(error)")
                continue
            }
            for reading in file.readings {
                precondition(reading.metric.allowedRange.contains(reading.value), "out of range: \(reading)")
                precondition(abs(reading.loggedAt.timeIntervalSince1970) < 1e12, "no usable instant: \(reading)")
                precondition(reading.line >= 1, "entry \(reading.line): \(reading)")
                // fitiq-tui's own export says each entry's source; the apps' files are the app's.
                precondition(reading.source == format.source || format.name == ExportFormat.fitiqJSON.name)
            }
            for total in file.activity.totals() {
                precondition(total.value.isFinite && total.value >= 0, "activity total: \(total)")
            }
            for problem in file.badRows {
                precondition(problem.isEntry && problem.line >= 1, "\(problem)")
                precondition(!problem.description.isEmpty)
            }
        }
    }
    return 0
}
