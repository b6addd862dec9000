// libFuzzer target `zip`: export.zip as FitIQImport reads it: the central directory (ZIP64
// included), the choice of the export member, zlib's inflate of it in `ZipMemberStream`, the zip
// bomb guard, the CRC-32 check and the XML parser behind them.
//
// Compiled into the module FitIQImport without AppleHealthExport.swift (its NIO thread pool). The
// readers take an open file, so each input is written to a file of this process first (in /dev/shm
// when there is one), then read as `AppleHealthExport.readNow` reads a zip.
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

private let scratch: URL = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : "/tmp"
    return URL(fileURLWithPath: folder).appendingPathComponent("fitiq-fuzz-zip-\(getpid()).zip")
}()

private let removeScratch: Void = {
    atexit { unlink(scratch.path) }
}()

/// `FITIQ_FUZZ_VERBOSE=1`: print what each input gave (to look at one input, e.g. a crash file).
private let verbose = getenv("FITIQ_FUZZ_VERBOSE") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    _ = removeScratch
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        try data.write(to: scratch)
    } catch {
        fatalError("cannot write \(scratch.path): \(error)")
    }
    do {
        let file = try ExportFile(url: scratch)
        _ = try? file.kind()
        let session = ReadSession(totalBytes: file.size, flag: CancellationFlag(), report: { _ in })
        // Small buffers: several inflate rounds even for small members.
        let snapshot = try ZipExportReader(url: scratch, bufferSize: 512).read(file, session: session)
        if verbose { print("read: \(snapshot)") }
        for sample in snapshot.samples {
            precondition(sample.value.isFinite, "a measurement that is not a number: \(sample)")
        }
    } catch let error as HealthImportError {
        if verbose { print("refused: \(error)") }
        precondition(!"\(error)".isEmpty)
    } catch {
        fatalError("the zip reader threw something other than a HealthImportError: \(error)")
    }
    return 0
}
