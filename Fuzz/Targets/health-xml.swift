// libFuzzer target `health-xml`: the health export's XML as FitIQImport reads it: the DOCTYPE
// stripper, libxml2's SAX2 push parser and the collector of Height, BodyMass and BodyFatPercentage
// records (a Correlation's skipped), of the activity records (steps, energy, food, resting heart rate,
// sleep) that become a day's total each, `<Me>` and `<ExportDate>`.
//
// Compiled into the module FitIQImport without AppleHealthExport.swift (its NIO thread pool), so it
// feeds `HealthXMLParser` directly, as `AppleHealthExport.readXML` does: in chunks, here of 1 to 64
// bytes chosen by the input's first byte, so every chunk boundary of the stripper is reached too.
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `FITIQ_FUZZ_VERBOSE=1`: print what each input gave (to look at one input, e.g. a crash file).
private let verbose = getenv("FITIQ_FUZZ_VERBOSE") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealthXML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: start, count: count)
    let chunk = bytes.isEmpty ? 1 : Int(bytes[0] % 64) + 1
    for size in [chunk, max(count, 1)] {
        read(bytes, chunkSize: size)
    }
    return 0
}

private func read(_ bytes: UnsafeRawBufferPointer, chunkSize: Int) {
    let snapshot: HealthSnapshot
    do {
        let parser = try HealthXMLParser(fileName: "export.xml")
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunkSize, bytes.count)
            try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
            offset = end
        }
        snapshot = try parser.finish()
    } catch let error as HealthImportError {
        if verbose { print("refused: \(error)") }
        precondition(!"\(error)".isEmpty)
        return
    } catch {
        fatalError("the XML reader threw something other than a HealthImportError: \(error)")
    }
    if verbose { print("read: \(snapshot)") }
    for sample in snapshot.samples {
        precondition(sample.value.isFinite, "a measurement that is not a number: \(sample)")
    }
    // Every day's total is a finite amount of at least zero; a refused record names a line.
    for total in snapshot.activity.totals() {
        precondition(total.value.isFinite && total.value >= 0, "a day's total that is no amount: \(total)")
        precondition(total.loggedAt.timeIntervalSince1970.isFinite, "a day's total at no time: \(total)")
    }
    precondition(snapshot.refusedRecords.count <= snapshot.refusedRecordCount)
}
