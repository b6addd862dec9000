import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The files of other apps' exports at a path: a file, a folder (an unpacked export) or a zip, walked
/// entry by entry. Each entry is recognised by its first bytes (a header, JSON keys, SQLite's magic),
/// never by its name alone, and handed to the first of ``ExportFormat/all`` that recognises it; only
/// those entries are read in full, so a Google Takeout of a gigabyte costs about the time of its weight
/// files.
///
/// Zip members' names are only compared, never used as paths.
public struct ExportWalk: ExportFiles {
    public init() {}

    /// `TZ`, else the zone `/etc/localtime` points to.
    public var zoneName: String {
        if let zone = ProcessInfo.processInfo.environment["TZ"], !zone.isEmpty { return zone }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")) ?? ""
        let parts = target.split(separator: "zoneinfo/", maxSplits: 1)
        return parts.count == 2 ? String(parts[1]) : "UTC"
    }

    public func describe(format: String) -> String {
        ExportFormat.describe(format)
    }

    public func isAppleHealthExport(_ path: String) -> Bool {
        AppleHealthExport.isExport(URL(fileURLWithPath: path))
    }

    public func read(
        _ path: String, format: String?, options: ImportOptions, heightCm: Double?,
        progress: @escaping @Sendable (HealthReadProgress) -> Void = { _ in }
    ) throws -> [ImportedFile] {
        try Self.read(
            URL(fileURLWithPath: path), format: format.flatMap(ExportFormat.named), options: options,
            heightCm: heightCm, progress: progress)
    }

    /// How many bytes of each entry are looked at to recognise it.
    static let headBytes = 4_096
    /// The size of each read of an entry.
    static let chunkSize = 1 << 16

    /// Reads every entry of a known format at `url` (only those of `format`, when given). Throws
    /// ``HealthImportError`` naming the file when a file given alone is of no known format, when a
    /// folder or zip holds none, or when an entry of a known format cannot be read.
    public static func read(
        _ url: URL, format: ExportFormat? = nil, options: ImportOptions, heightCm: Double? = nil,
        progress: @escaping (HealthReadProgress) -> Void = { _ in }
    ) throws -> [ImportedFile] {
        guard let type = try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType else {
            throw HealthImportError.missing(path: url.path)
        }
        let walk = Walk(
            formats: format.map { [$0] } ?? ExportFormat.all, options: options, heightCm: heightCm, progress: progress)
        let entries: [ImportedFile]
        if type == .typeDirectory {
            entries = try walk.folder(url)
        } else {
            let file = try ExportFile(url: url)
            if try ExportEntry.isZip(file) {
                entries = try walk.zip(file)
            } else {
                let entry = ExportEntry(file: file, name: url.lastPathComponent)
                guard let imported = try walk.read(entry, reporting: true) else {
                    throw unknown(entry, askedFor: format)
                }
                return [imported]
            }
        }
        guard !entries.isEmpty else { throw HealthImportError.nothingToRead(path: url.path) }
        return entries
    }

    /// Why a file given alone is not read: a text file that looks like a table is named by its header.
    private static func unknown(_ entry: ExportEntry, askedFor format: ExportFormat?) -> HealthImportError {
        if format == nil, let line = entry.head.split(separator: UInt8(ascii: "\n")).first,
            let text = String(validating: line, as: UTF8.self),
            text.contains(",") || text.contains(";") || text.contains("\t")
        {
            return HealthImportError.unreadableFile(
                path: entry.place,
                .unknownHeader(TextSanitizer.sanitize(String(text.prefix(120))), formats: ExportFormat.tablesDescribed))
        }
        return HealthImportError.unknownFile(path: entry.place)
    }

    /// One walk of a path: the formats looked for, and what the files leave open.
    struct Walk {
        let formats: [ExportFormat]
        let options: ImportOptions
        let heightCm: Double?
        let progress: (HealthReadProgress) -> Void

        /// The first of the formats that recognises `entry` by its content.
        func format(of entry: ExportEntry) -> ExportFormat? {
            ExportFormat.recognising(head: entry.head, name: entry.baseName, among: formats)
        }

        /// Reads `entry` when it is of one of the formats, else `nil`; `reporting`, the bytes read of it
        /// are reported as the progress of the whole path.
        func read(_ entry: ExportEntry, reporting: Bool = false) throws -> ImportedFile? {
            guard let format = format(of: entry) else { return nil }
            switch format.layout {
            case .table:
                var reader = TableReader(options, formats: [format])
                var done: Int64 = 0
                do {
                    try entry.stream(chunkSize: ExportWalk.chunkSize) { chunk in
                        try reader.read(chunk)
                        done += Int64(chunk.count)
                        if reporting { progress(HealthReadProgress(bytesRead: done, totalBytes: Int64(entry.size))) }
                    }
                    return ImportedFile(name: entry.name, file: try reader.finish())
                } catch let error as ImportError {
                    throw HealthImportError.unreadableFile(path: entry.place, error)
                }
            case .json(let layout):
                guard entry.size <= UInt64(JSONDocument.maximumBytes) else {
                    throw HealthImportError.unreadable(path: entry.place, reason: "a JSON file larger than 64 MB")
                }
                var data = Data()
                data.reserveCapacity(Int(entry.size))
                try entry.stream(chunkSize: ExportWalk.chunkSize) { data.append(contentsOf: $0) }
                var file = format.emptyReadings()
                do {
                    try layout.read(data, entry.baseName, options, heightCm, &file)
                } catch let error as ImportError {
                    throw HealthImportError.unreadableFile(path: entry.place, error)
                }
                return ImportedFile(name: entry.name, file: file)
            case .database(let layout):
                return try entry.onDisk { path in
                    try layout.read(path, format, options).map { ImportedFile(name: entry.name, file: $0) }
                }
            }
        }

        /// Every file below `folder`, in the order of their paths; those of no known format are passed over.
        func folder(_ folder: URL) throws -> [ImportedFile] {
            let paths = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
            return try paths.sorted().compactMap { path in
                let url = folder.appendingPathComponent(path)
                guard
                    (try? FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType)
                        == .typeRegular,
                    let file = try? ExportFile(url: url)
                else { return nil }
                return try read(ExportEntry(file: file, name: path))
            }
        }

        /// Every member of a zip, in the archive's order; only those of a known format are inflated whole.
        func zip(_ file: ExportFile) throws -> [ImportedFile] {
            let directory: ZipCentralDirectory
            do {
                directory = try ZipCentralDirectory(file: file)
            } catch {
                throw HealthImportError.damagedArchive(
                    path: file.path, reason: "its directory cannot be read (\(error.reason))")
            }
            return try directory.entries.filter(\.isFile).compactMap { member in
                let entry = try ExportEntry(member: member, of: file, headBytes: ExportWalk.headBytes)
                progress(HealthReadProgress(bytesRead: entry.offset, totalBytes: file.size))
                return try read(entry)
            }
        }
    }
}
