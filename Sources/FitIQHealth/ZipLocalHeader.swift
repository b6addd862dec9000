import Foundation
import ZIPFoundation

/// Finds where a member's data starts: after its local file header, whose offset the central directory holds.
///
/// ZIPFoundation 0.9.20 keeps that offset internal (`Entry.dataOffset`), so it is read from the
/// entry's stored central-directory fields by reflection, then the local header itself is read and
/// checked. Anything unexpected (a ZIPFoundation that names its fields differently, a bad
/// signature) gives `nil`: the read then fails closed. Upstream could make `dataOffset` public.
enum ZipLocalHeader {
    private static let signature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// The file offset of `entry`'s data in `file`, or `nil` if it cannot be located safely.
    static func dataOffset(of entry: Entry, in file: ExportFile) -> Int64? {
        guard let headerOffset = headerOffset(of: entry), headerOffset >= 0 else { return nil }
        var header = [UInt8](repeating: 0, count: 30)
        let count = try? header.withUnsafeMutableBytes { try file.readChunk(at: headerOffset, into: $0) }
        guard count == 30, header.starts(with: signature) else { return nil }
        let nameLength = Int64(header[26]) | Int64(header[27]) << 8
        let extraLength = Int64(header[28]) | Int64(header[29]) << 8
        return headerOffset + 30 + nameLength + extraLength
    }

    /// The local header offset from the central directory, following a ZIP64 extra field when needed.
    private static func headerOffset(of entry: Entry) -> Int64? {
        guard let directory = Mirror(reflecting: entry).descendant("centralDirectoryStructure") else { return nil }
        let fields = Mirror(reflecting: directory)
        guard let offset = fields.descendant("relativeOffsetOfLocalHeader") as? UInt32 else { return nil }
        if offset != .max { return Int64(offset) }
        guard let extra = fields.descendant("extraFieldData") as? Data,
            let uncompressed = fields.descendant("uncompressedSize") as? UInt32,
            let compressed = fields.descendant("compressedSize") as? UInt32
        else { return nil }
        // ZIP64 extended information (header 0x0001) lists, in order, only the fields that are 0xFFFFFFFF.
        let bytes = [UInt8](extra)
        var index = 0
        while index + 4 <= bytes.count {
            let id = Int(bytes[index]) | Int(bytes[index + 1]) << 8
            let size = Int(bytes[index + 2]) | Int(bytes[index + 3]) << 8
            let body = index + 4
            guard body + size <= bytes.count else { return nil }
            if id == 1 {
                let skip = (uncompressed == .max ? 8 : 0) + (compressed == .max ? 8 : 0)
                guard skip + 8 <= size else { return nil }
                let value = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[body + skip + $1]) << (8 * $1) }
                return Int64(exactly: value)
            }
            index = body + size
        }
        return nil
    }
}
