// libFuzzer target `cache`: the cache files as FitIQCache reads them from disk.
//
// Compiled into the module FitIQCache (scripts/fuzz/build.sh), so it calls the internal decoder each
// store uses: every input is read as account.json, session.json and current.json (through
// `CacheFile.decode`, the schema version check included) and as the config file. A file may be
// unreadable for any reason; one that is read must save and read back to the same bytes.
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    readBack(AccountFile.self, data)
    readBack(SessionFile.self, data)
    readBack(CurrentAccountFile.self, data)
    if let config = try? ConfigFile.decode(data) {
        let written: Data
        do {
            written = try JSONEncoder().encode(config)
        } catch {
            fatalError("a config file read cannot be written: \(error)")
        }
        guard (try? ConfigFile.decode(written)) == config else { fatalError("a config file does not read back") }
    }
    return 0
}

/// Decodes `data` as a `Format` file; what decodes must encode, and read back to the same encoding.
private func readBack<Format: VersionedFileFormat>(_ format: Format.Type, _ data: Data) {
    let value: Format.Value
    switch CacheFile<Format>.decode(data) {
    case .value(let read): value = read
    case .unreadable(let reason): return precondition(!reason.isEmpty)
    case .missing, .newer: return
    }
    let first = encode(Format(value: value))
    guard case .value(let again) = CacheFile<Format>.decode(first) else {
        fatalError(
            "\(Format.self): a file read cannot be read back after saving: \(String(decoding: first, as: UTF8.self))")
    }
    let second = encode(Format(value: again))
    guard first == second else {
        fatalError(
            "\(Format.self) changes when saved again:\n\(String(decoding: first, as: UTF8.self))\n"
                + String(decoding: second, as: UTF8.self))
    }
}

private func encode<Format: VersionedFileFormat>(_ file: Format) -> Data {
    do {
        return try CacheFileDecoding.encoder.encode(file)
    } catch {
        fatalError("\(Format.self): a file read cannot be saved: \(error)")
    }
}
