// libFuzzer target `app-json`: the JSON files of other apps' exports for `import` (Fitbit's and Google
// Fit's in Google Takeout, Garmin Connect's userBioMetrics).
//
// The input is read as each JSON format in turn. The reader may refuse the file whole (text that is no
// JSON of the format, or weights whose unit cannot be told); otherwise every reading it accepts must be
// in its metric's range at a usable instant, every problem must name an entry of the file, every
// sentence must be said, and nothing may trap, hang or blow up memory.
import FitIQCore
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let head = Array(data.prefix(4_096))
    _ = MeasurementJSON.format(ofHead: head, name: "userBioMetrics.json")
    for format in [MeasurementCSV.Format.fitbit, .googleFit, .garmin] {
        for height in [nil, 180.0] {
            let options = MeasurementCSV.Options(zone: .fixed(secondsEastOfUTC: 3_600))
            let file: MeasurementCSV
            do {
                file = try MeasurementJSON.read(data, format: format, options, heightCm: height)
            } catch {
                precondition(!error.description.isEmpty)
                continue
            }
            for reading in file.readings {
                precondition(reading.metric.allowedRange.contains(reading.value), "out of range: \(reading)")
                precondition(abs(reading.loggedAt.timeIntervalSince1970) < 1e12, "no usable instant: \(reading)")
                precondition(reading.line >= 1, "entry \(reading.line): \(reading)")
                precondition(reading.source == format.source)
            }
            for problem in file.problems {
                precondition(problem.isEntry && problem.line >= 1, "\(problem)")
                precondition(!problem.description.isEmpty)
            }
        }
    }
    return 0
}
