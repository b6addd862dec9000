import Dispatch
import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One versioned JSON cache file: reads it, writes it atomically and moves it aside when unreadable.
struct CacheFile<Format: VersionedFileFormat>: Sendable {
    /// What reading the file gave.
    enum Contents {
        case missing
        case value(Format.Value)
        /// The file exists but cannot be used, for `reason`.
        case unreadable(reason: String)
        /// A newer fitiq-tui wrote it (schema `version`): it is never moved aside or overwritten.
        case newer(version: Int)
    }

    let url: URL
    var atomicFile: AtomicFile
    /// The clock naming moved-aside files.
    let now: @Sendable () -> Date

    init(url: URL, now: @escaping @Sendable () -> Date = { Date() }) {
        self.url = url
        self.atomicFile = AtomicFile(url: url, permissions: 0o600)
        self.now = now
    }

    var path: String { url.path }

    /// Reads and decodes the file.
    func contents() throws(CacheError) -> Contents {
        guard let data = try readData() else { return .missing }
        return Self.decode(data)
    }

    /// The error for a file of schema `version`, newer than this build reads (the file stays as it is).
    func newer(_ version: Int) -> CacheError {
        .newerVersion(path: path, version: version, supported: Format.schemaVersion)
    }

    /// Reads the file; an unreadable file is moved aside and reported. Call it holding the account lock.
    func readRecovering() throws(CacheError) -> Format.Value? {
        switch try contents() {
        case .missing: return nil
        case .value(let value): return value
        case .unreadable(let reason): throw moveAside(reason: reason)
        case .newer(let version): throw newer(version)
        }
    }

    /// Replaces the file with `value`; returns the bytes written.
    @discardableResult
    func write(_ value: Format.Value) throws(CacheError) -> Data {
        try write { try Self.encode(value) }
    }

    /// Replaces the file with what `encode` returns (``encode(_:)``'s bytes, made another way).
    @discardableResult
    func write(_ encode: () throws -> Data) throws(CacheError) -> Data {
        let data: Data
        do {
            data = try encode()
        } catch {
            throw .writeFailed(path: path, reason: "cannot encode it: \(error)")
        }
        try atomicFile.write(data)
        return data
    }

    /// Writes each file's value, all in one folder, flushing the folder once (``AtomicFile/write(_:)``);
    /// returns the bytes written, file by file.
    static func write(_ files: [(file: CacheFile, value: Format.Value)]) throws(CacheError) -> [Data] {
        var batch: [(file: AtomicFile, data: Data)] = []
        for (file, encoded) in zip(files.map(\.file), encodeAll(files.map(\.value))) {
            switch encoded {
            case .success(let data): batch.append((file.atomicFile, data))
            case .failure(let error): throw .writeFailed(path: file.path, reason: "cannot encode it: \(error)")
            }
        }
        try AtomicFile.write(batch)
        return batch.map(\.data)
    }

    /// Each value's bytes: a batch of many (a first sync writes all its months at once, and encoding
    /// them is its main work once the pages are in) on every core. A fold's few months stay on
    /// this thread: the long-running editor then starts no worker threads, nor the memory arenas that
    /// each keeps.
    private static func encodeAll(_ values: [Format.Value]) -> [Result<Data, any Error>] {
        guard values.count >= filesEncodedTogether else { return values.map { value in Result { try encode(value) } } }
        let results = Mutex([Result<Data, any Error>?](repeating: nil, count: values.count))
        DispatchQueue.concurrentPerform(iterations: values.count) { index in
            let result = Result { try encode(values[index]) }
            results.withLock { $0[index] = result }
        }
        // Every index was run: none is left `nil`.
        return results.withLock { $0.compactMap { $0 } }
    }

    /// How many files a batch holds before it is encoded on every core.
    static var filesEncodedTogether: Int { 16 }

    /// Deletes the file; a missing file is not an error.
    func delete() throws(CacheError) {
        if unlink(path) != 0, errno != ENOENT {
            throw .fileSystem(path: path, reason: "cannot delete it: \(ErrnoText.current)")
        }
    }

    /// Renames the unreadable file to `<name>.corrupt-<UTC time>`, keeping its bytes, and returns the error to report.
    func moveAside(reason: String) -> CacheError {
        let stamp = Self.timestamp(now())
        var target = URL(fileURLWithPath: "\(path).corrupt-\(stamp)")
        var suffix = 2
        while FileManager.default.fileExists(atPath: target.path) {
            target = URL(fileURLWithPath: "\(path).corrupt-\(stamp)-\(suffix)")
            suffix += 1
        }
        guard rename(path, target.path) == 0 else {
            return .fileSystem(
                path: path, reason: "it cannot be read (\(reason)) nor moved aside (\(ErrnoText.current))")
        }
        return .corrupt(path: path, movedTo: target.path, reason: reason)
    }

    /// The file's bytes; `nil` when it does not exist.
    func readData() throws(CacheError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: ErrnoText.current)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: ErrnoText.current)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    static func decode(_ data: Data) -> Contents {
        // A file of this version is read once (reading its version first would read it all twice).
        if let file = try? decoder.decode(Format.self, from: data), file.schemaVersion == Format.schemaVersion {
            do {
                return .value(try file.value)
            } catch {
                return .unreadable(reason: CacheFileDecoding.reason(error))
            }
        }
        // Another version, or damage: the version says which, and the decoder why.
        let header: FileHeader
        do {
            header = try decoder.decode(FileHeader.self, from: data)
        } catch {
            return .unreadable(reason: CacheFileDecoding.reason(error))
        }
        guard let version = header.schemaVersion else { return .unreadable(reason: "it has no schemaVersion") }
        if version > Format.schemaVersion { return .newer(version: version) }
        if version < Format.schemaVersion {
            do {
                if let value = try Format.decodeOlder(version: version, from: data, with: decoder) {
                    return .value(value)
                }
            } catch {
                return .unreadable(reason: CacheFileDecoding.reason(error))
            }
        }
        guard version == Format.schemaVersion else {
            return .unreadable(
                reason: "its schemaVersion \(version) is not the version this fitiq-tui reads (\(Format.schemaVersion))"
            )
        }
        do {
            return .value(try decoder.decode(Format.self, from: data).value)
        } catch {
            return .unreadable(reason: CacheFileDecoding.reason(error))
        }
    }

    private struct FileHeader: Decodable {
        var schemaVersion: Int?
    }

    /// The file's bytes for `value`.
    static func encode(_ value: Format.Value) throws -> Data {
        try Format.encoded(value)
    }

    /// Reads `data` as this format, whatever its schema version; `nil` when it cannot be used.
    static func value(_ data: Data) -> Format.Value? {
        if case .value(let value) = decode(data) { return value }
        return nil
    }

    private static var decoder: JSONDecoder { CacheFileDecoding.decoder }

    /// `20251122T144301.123Z`.
    private static func timestamp(_ date: Date) -> String {
        let day = CalendarDate(containing: date, in: .utc)
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let ofDay = Int((milliseconds % 86_400_000 + 86_400_000) % 86_400_000)
        let (hour, minute, second) = (ofDay / 3_600_000, ofDay / 60_000 % 60, ofDay / 1000 % 60)
        let time = [hour, minute, second].map { DecimalText.padded($0, width: 2) }.joined()
        return day.description.replacing("-", with: "") + "T" + time + "." + DecimalText.padded(ofDay % 1000, width: 3)
            + "Z"
    }
}
