import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files of other apps' exports at a path: a file, a folder (an unpacked export) or a zip, read
/// entry by entry. Each entry is recognised by its first bytes (a header, JSON keys), never by its name
/// alone, and only the entries of a known format are read in full: a Google Takeout of a gigabyte
/// costs about the time of its weight files.
///
/// Zip members' names are only compared, never used as paths.
public struct AppExport: ExportFiles {
    public init() {}

    /// `TZ`, else the zone `/etc/localtime` points to.
    public var zoneName: String {
        if let zone = ProcessInfo.processInfo.environment["TZ"], !zone.isEmpty { return zone }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
        let parts = target.split(separator: "zoneinfo/", maxSplits: 1)
        return parts.count == 2 ? String(parts[1]) : "UTC"
    }

    public func isAppleHealthExport(_ path: String) -> Bool {
        Self.isAppleHealthExport(URL(fileURLWithPath: path))
    }

    public func read(
        _ path: String, format: MeasurementCSV.Format?, options: MeasurementCSV.Options, heightCm: Double?,
        progress: @escaping @Sendable (HealthReadProgress) -> Void = { _ in }
    ) throws -> [ImportedFile] {
        try Self.read(
            URL(fileURLWithPath: path), format: format, options: options, heightCm: heightCm, progress: progress)
    }

    /// How many bytes of each entry are looked at to recognise it.
    static let headBytes = 4_096
    /// The size of each read of a CSV entry.
    static let chunkSize = 1 << 16

    /// Whether `url` is an Apple Health export: `export.xml`, or a zip whose `*/export.xml` member
    /// starts like one (read by ``AppleHealthExport``, for biological sex and the date of birth too).
    public static func isAppleHealthExport(_ url: URL) -> Bool {
        guard let file = try? ExportFile(url: url), let kind = try? file.kind() else { return false }
        switch kind {
        case .xml: return ZipExportReader.looksLikeHealthExport(head(of: file, bytes: 1024))
        case .zip:
            guard let directory = try? ZipCentralDirectory(file: file) else { return false }
            return directory.entries.contains { entry in
                guard entry.isFile, ZipExportReader.isCandidate(entry.path),
                    let member = try? ZipMemberStream(entry: entry, file: file)
                else { return false }
                return ZipExportReader.looksLikeHealthExport(ZipExportReader.head(of: member))
            }
        }
    }

    /// Reads every entry of a known format at `url` (only those of `format`, when given). Throws
    /// ``HealthImportError`` naming the file when a file given alone is of no known format, when a
    /// folder or zip holds none, or when an entry of a known format cannot be read.
    public static func read(
        _ url: URL, format: MeasurementCSV.Format? = nil, options: MeasurementCSV.Options, heightCm: Double? = nil,
        progress: @escaping (HealthReadProgress) -> Void = { _ in }
    ) throws -> [ImportedFile] {
        guard let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType else {
            throw HealthImportError.missing(path: url.path)
        }
        let reading = Reading(format: format, options: options, heightCm: heightCm, progress: progress)
        if type == .typeDirectory {
            let entries = try reading.folder(url)
            guard !entries.isEmpty else { throw HealthImportError.nothingToRead(path: url.path) }
            return entries
        }
        let file = try ExportFile(url: url)
        if try isZip(file) {
            let entries = try reading.zip(file)
            guard !entries.isEmpty else { throw HealthImportError.nothingToRead(path: url.path) }
            return entries
        }
        guard let entry = try reading.file(file, name: url.lastPathComponent, total: file.size) else {
            // A text file that looks like a table: its header says what it is not.
            let head = head(of: file, bytes: headBytes)
            if format == nil, let line = head.split(separator: UInt8(ascii: "\n")).first,
                let text = String(validating: line, as: UTF8.self),
                text.contains(",") || text.contains(";") || text.contains("\t")
            {
                throw HealthImportError.unreadableFile(
                    path: url.path, .unknownHeader(TextSanitizer.sanitize(String(text.prefix(120)))))
            }
            throw HealthImportError.unknownFile(path: url.path)
        }
        return [entry]
    }

    private static func isZip(_ file: ExportFile) throws -> Bool {
        let head = head(of: file, bytes: 4)
        return head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    static func head(of file: ExportFile, bytes limit: Int) -> [UInt8] {
        var head = [UInt8](repeating: 0, count: limit)
        let count = (try? head.withUnsafeMutableBytes { try file.readChunk(at: 0, into: $0) }) ?? 0
        return Array(head.prefix(count))
    }

    /// What a file's first bytes are.
    enum Kind: Equatable {
        case csv(MeasurementCSV.Format)
        case json(MeasurementCSV.Format)
        case healthConnect
    }

    static func kind(ofHead head: [UInt8], name: String) -> Kind? {
        if head.starts(with: Array("SQLite format 3\u{0}".utf8)) { return .healthConnect }
        if let format = MeasurementJSON.format(ofHead: head, name: name) { return .json(format) }
        return MeasurementCSV.format(ofHead: head).map(Kind.csv)
    }

    /// One reading of a path: its options, and the format asked for, if any.
    private struct Reading {
        let format: MeasurementCSV.Format?
        let options: MeasurementCSV.Options
        let heightCm: Double?
        let progress: (HealthReadProgress) -> Void

        func wanted(_ kind: Kind?) -> Kind? {
            switch kind {
            case .csv(let found), .json(let found): format.map { $0 == found } ?? true ? kind : nil
            case .healthConnect: format.map { $0 == .healthConnect } ?? true ? kind : nil
            case nil: nil
            }
        }

        /// A file on its own: `nil` when it is of no known format (or not of the format asked for).
        func file(_ file: ExportFile, name: String, total: Int64?) throws -> ImportedFile? {
            let path = file.path
            switch wanted(AppExport.kind(ofHead: head(of: file, bytes: headBytes), name: name)) {
            case nil: return nil
            case .healthConnect:
                return try healthConnect(at: path, name: name)
            case .csv:
                var reader = MeasurementCSV.Reader(options)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
                defer { buffer.deallocate() }
                var done: Int64 = 0
                do {
                    while true {
                        let count = try file.readChunk(into: buffer)
                        if count == 0 { break }
                        try reader.read(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                        done += Int64(count)
                        if total != nil { progress(HealthReadProgress(bytesRead: done, totalBytes: total)) }
                    }
                    return ImportedFile(name: name, file: try reader.finish())
                } catch let error as ImportError {
                    throw HealthImportError.unreadableFile(path: path, error)
                }
            case .json(let format):
                guard file.size <= MeasurementJSON.maximumBytes else {
                    throw HealthImportError.unreadable(path: path, reason: "a JSON file larger than 64 MB")
                }
                var data = Data(count: Int(file.size))
                let count = try data.withUnsafeMutableBytes { try file.readChunk(at: 0, into: $0) }
                return try json(data.prefix(count), format: format, path: path, name: name)
            }
        }

        /// A Health Connect database on disk; `nil` when it holds none of the tables read.
        func healthConnect(at path: String, name: String) throws -> ImportedFile? {
            guard let records = try LibSQLite3.load().healthConnectRecords(at: path) else { return nil }
            return ImportedFile(name: name, file: .healthConnect(records))
        }

        func json(_ data: Data, format: MeasurementCSV.Format, path: String, name: String) throws -> ImportedFile {
            do {
                return ImportedFile(
                    name: name, file: try MeasurementJSON.read(data, format: format, options, heightCm: heightCm))
            } catch {
                throw HealthImportError.unreadableFile(path: path, error)
            }
        }

        /// Every file below `folder`, in the order of their paths; those of no known format are passed over.
        func folder(_ folder: URL) throws -> [ImportedFile] {
            let paths = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
            var entries: [ImportedFile] = []
            for path in paths.sorted() {
                let url = folder.appendingPathComponent(path)
                guard
                    (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType)
                        == .typeRegular,
                    let file = try? ExportFile(url: url)
                else { continue }
                if let entry = try self.file(file, name: path, total: nil) { entries.append(entry) }
            }
            return entries
        }

        /// Every member of a zip, in the archive's order; only those of a known format are inflated whole.
        func zip(_ file: ExportFile) throws -> [ImportedFile] {
            let path = file.path
            let directory: ZipCentralDirectory
            do {
                directory = try ZipCentralDirectory(file: file)
            } catch {
                throw HealthImportError.damagedArchive(
                    path: path, reason: "its directory cannot be read (\(error.reason))")
            }
            var entries: [ImportedFile] = []
            for entry in directory.entries where entry.isFile {
                let member: ZipMemberStream
                do {
                    member = try ZipMemberStream(entry: entry, file: file)
                } catch {
                    throw ZipExportReader.damaged(path, error)
                }
                let name = String(entry.path.split(separator: "/").last ?? "")
                let kind = wanted(
                    AppExport.kind(ofHead: ZipExportReader.head(of: member, bytes: headBytes), name: name))
                progress(HealthReadProgress(bytesRead: member.dataOffset, totalBytes: file.size))
                let place = "\(path) (\(entry.path))"
                switch kind {
                case nil: continue
                case .healthConnect:
                    // SQLite reads files: the member goes to a file of this process's own, removed after.
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                        "fitiq-health-connect-" + UUID().uuidString)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
                    defer { try? FileManager.default.removeItem(at: folder) }
                    let copy = folder.appendingPathComponent("export.db")
                    try ExportFile.writeCopy(to: copy.path) { write in
                        try member.read(archive: path, bufferSize: chunkSize) { chunk, _ in try write(chunk) }
                    }
                    if let imported = try healthConnect(at: copy.path, name: entry.path) { entries.append(imported) }
                case .csv:
                    var reader = MeasurementCSV.Reader(options)
                    try member.read(archive: path, bufferSize: chunkSize) { chunk, _ in
                        try chunk.withUnsafeBytes { try reader.read($0) }
                    }
                    do {
                        entries.append(ImportedFile(name: entry.path, file: try reader.finish()))
                    } catch {
                        throw HealthImportError.unreadableFile(path: place, error)
                    }
                case .json(let format):
                    guard entry.uncompressedSize <= UInt64(MeasurementJSON.maximumBytes) else {
                        throw HealthImportError.unreadable(path: place, reason: "a JSON file larger than 64 MB")
                    }
                    var data = Data()
                    try member.read(archive: path, bufferSize: chunkSize) { chunk, _ in data.append(chunk) }
                    entries.append(try json(data, format: format, path: place, name: entry.path))
                }
            }
            return entries
        }
    }
}
