#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The members an `export.zip` lists in its central directory (ZIP64 included), and where each one's
/// data starts. Only what the Health export reader needs: names, sizes, method, CRC-32 and offsets.
///
/// Every number is checked against the file before it is used: a directory or a member that does not
/// fit the file is a damaged archive, never a read past its end.
struct ZipCentralDirectory {
    /// One member of the archive.
    struct Entry: Equatable {
        /// The member's name as stored (compared, never used as a path).
        var path: String
        /// 0 stored, 8 deflated.
        var method: UInt16
        var checksum: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        /// Where its local file header starts.
        var localHeaderOffset: UInt64

        /// Whether it is a file (a folder's name ends with `/`).
        var isFile: Bool { !path.hasSuffix("/") }
        var isCompressed: Bool { method != 0 }
    }

    /// Why the directory cannot be read.
    struct Damaged: Error, Equatable {
        let reason: String
    }

    let entries: [Entry]

    /// The directory holds at most this many members (real exports have a few thousand route files).
    static let maximumEntries = 1_000_000
    /// The end record lies within the last 64 KiB (its comment) plus its own 22 bytes.
    private static let endRecordSearch: Int64 = 65_535 + 22

    /// Reads the central directory of `file`.
    init(file: ExportFile) throws(Damaged) {
        let end = try Self.endRecord(in: file)
        var count = UInt64(end.bytes.u16(10))
        var size = UInt64(end.bytes.u32(12))
        var offset = UInt64(end.bytes.u32(16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            (count, size, offset) = try Self.zip64Directory(in: file, endRecordAt: end.offset)
        }
        guard count <= UInt64(Self.maximumEntries) else { throw Damaged(reason: "it lists \(count) members") }
        guard offset <= UInt64(file.size), size <= UInt64(file.size) - offset else {
            throw Damaged(reason: "its directory lies past the end of the file")
        }
        let directory = try Self.bytes(of: file, at: Int64(offset), count: Int(size))
        var entries: [Entry] = []
        var position = 0
        for _ in 0..<count {
            let (entry, next) = try Self.entry(in: directory, at: position)
            entries.append(entry)
            position = next
        }
        self.entries = entries
    }

    /// The offset of `entry`'s data: past its local header, whose name and extra field lengths are
    /// its own (they may differ from the central directory's).
    static func dataOffset(of entry: Entry, in file: ExportFile) throws(Damaged) -> Int64 {
        guard entry.localHeaderOffset <= UInt64(file.size) else {
            throw Damaged(reason: "the export member's local header cannot be found")
        }
        let header = try? bytes(of: file, at: Int64(entry.localHeaderOffset), count: 30)
        guard let header, header.u32(0) == 0x0403_4B50 else {
            throw Damaged(reason: "the export member's local header cannot be found")
        }
        return Int64(entry.localHeaderOffset) + 30 + Int64(header.u16(26)) + Int64(header.u16(28))
    }

    /// The end of central directory record, searched from the end of the file.
    private static func endRecord(in file: ExportFile) throws(Damaged) -> (bytes: [UInt8], offset: Int64) {
        let length = min(file.size, endRecordSearch)
        guard length >= 22 else { throw Damaged(reason: "it is too short to be a zip archive") }
        let tail = try bytes(of: file, at: file.size - length, count: Int(length))
        var index = tail.count - 22
        while index >= 0 {
            if tail.u32(index) == 0x0605_4B50 {
                return (Array(tail[index..<(index + 22)]), file.size - length + Int64(index))
            }
            index -= 1
        }
        throw Damaged(reason: "its directory cannot be found (no end of central directory record)")
    }

    /// Count, size and offset of the directory from the ZIP64 end record, found through its locator.
    private static func zip64Directory(in file: ExportFile, endRecordAt end: Int64) throws(Damaged)
        -> (UInt64, UInt64, UInt64)
    {
        guard end >= 20, let locator = try? bytes(of: file, at: end - 20, count: 20), locator.u32(0) == 0x0706_4B50
        else { throw Damaged(reason: "its ZIP64 directory locator is missing") }
        let recordOffset = locator.u64(8)
        guard recordOffset <= UInt64(file.size), let record = try? bytes(of: file, at: Int64(recordOffset), count: 56),
            record.u32(0) == 0x0606_4B50
        else { throw Damaged(reason: "its ZIP64 end of central directory record is missing") }
        return (record.u64(32), record.u64(40), record.u64(48))
    }

    /// The central directory file header at `position`, and where the next one starts.
    private static func entry(in directory: [UInt8], at position: Int) throws(Damaged) -> (Entry, Int) {
        guard position + 46 <= directory.count, directory.u32(position) == 0x0201_4B50 else {
            throw Damaged(reason: "its directory is cut short or corrupt")
        }
        let nameLength = Int(directory.u16(position + 28))
        let extraLength = Int(directory.u16(position + 30))
        let commentLength = Int(directory.u16(position + 32))
        let nameStart = position + 46
        let next = nameStart + nameLength + extraLength + commentLength
        guard next <= directory.count else { throw Damaged(reason: "its directory is cut short or corrupt") }
        var entry = Entry(
            path: String(decoding: directory[nameStart..<(nameStart + nameLength)], as: UTF8.self),
            method: directory.u16(position + 10), checksum: directory.u32(position + 16),
            compressedSize: UInt64(directory.u32(position + 20)),
            uncompressedSize: UInt64(directory.u32(position + 24)),
            localHeaderOffset: UInt64(directory.u32(position + 42)))
        let extra = Array(directory[(nameStart + nameLength)..<(nameStart + nameLength + extraLength)])
        try applyZip64(extra, to: &entry)
        return (entry, next)
    }

    /// Replaces the 32-bit fields that are 0xFFFFFFFF with the ZIP64 extended information (header
    /// 0x0001), which lists, in this order, only the fields that overflowed.
    private static func applyZip64(_ extra: [UInt8], to entry: inout Entry) throws(Damaged) {
        let overflowed = [
            entry.uncompressedSize == 0xFFFF_FFFF, entry.compressedSize == 0xFFFF_FFFF,
            entry.localHeaderOffset == 0xFFFF_FFFF,
        ]
        guard overflowed.contains(true) else { return }
        var index = 0
        while index + 4 <= extra.count {
            let id = extra.u16(index)
            let size = Int(extra.u16(index + 2))
            var field = index + 4
            guard field + size <= extra.count else { break }
            if id == 1 {
                for (which, isOverflowed) in overflowed.enumerated() where isOverflowed {
                    guard field + 8 <= index + 4 + size else { throw Damaged(reason: "a ZIP64 field is cut short") }
                    let value = extra.u64(field)
                    switch which {
                    case 0: entry.uncompressedSize = value
                    case 1: entry.compressedSize = value
                    default: entry.localHeaderOffset = value
                    }
                    field += 8
                }
                return
            }
            index += 4 + size
        }
        throw Damaged(reason: "a member's sizes need ZIP64 information that is missing")
    }

    /// Exactly `count` bytes of `file` at `offset`.
    private static func bytes(of file: ExportFile, at offset: Int64, count: Int) throws(Damaged) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let read = try? buffer.withUnsafeMutableBytes { try file.readChunk(at: offset, into: $0) }
        guard read == count else { throw Damaged(reason: "it is cut short") }
        return buffer
    }
}

extension [UInt8] {
    /// Little-endian integers at `index` (bounds are checked by the callers).
    fileprivate func u16(_ index: Int) -> UInt16 {
        UInt16(self[index]) | UInt16(self[index + 1]) << 8
    }

    fileprivate func u32(_ index: Int) -> UInt32 {
        UInt32(u16(index)) | UInt32(u16(index + 2)) << 16
    }

    fileprivate func u64(_ index: Int) -> UInt64 {
        UInt64(u32(index)) | UInt64(u32(index + 4)) << 32
    }
}
