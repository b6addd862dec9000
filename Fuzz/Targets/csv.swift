// libFuzzer target `csv`: the table (CSV) files of `import`, every table format of FitIQImport's list
// (fitiq-tui's export, openScale, wger, date,weight, Withings, Samsung Health's weight, daily steps,
// sleep and water, Libra, Renpho).
//
// The input is read as UTF-8 text (invalid bytes become U+FFFD). The reader may refuse the file whole
// (an unknown or missing header); otherwise every reading it accepts must be in its metric's range at
// a usable instant, every day's activity total must be a finite amount not below zero, every problem
// must name a line of the file, and nothing may trap, hang or blow up memory.
import FitIQCore
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.utf8.reduce(into: 1) { lines, byte in if byte == UInt8(ascii: "\n") { lines += 1 } }
    for (unit, order) in [(nil, nil), ("lb", DateOrder.dayFirst), (nil, .monthFirst)] {
        let options = ImportOptions(unit: unit, zone: .fixed(secondsEastOfUTC: 3_600), dateOrder: order)
        guard let csv = try? TableReader.read(text, options) else { continue }
        for reading in csv.readings {
            precondition(reading.metric.allowedRange.contains(reading.value), "out of range: \(reading)")
            precondition(abs(reading.loggedAt.timeIntervalSince1970) < 1e12, "no usable instant: \(reading)")
            precondition((2...lines).contains(reading.line), "line \(reading.line) of \(lines): \(reading)")
        }
        for total in csv.activity.totals() {
            precondition(total.value.isFinite && total.value >= 0, "activity total: \(total)")
        }
        for problem in csv.badRows {
            precondition((2...lines).contains(problem.line), "line \(problem.line) of \(lines): \(problem)")
            precondition(!problem.rule.description.isEmpty)
        }
    }
    return 0
}
