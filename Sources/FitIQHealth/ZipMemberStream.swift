import CLibXML2
import Foundation
import ZIPFoundation

/// Streams one zip member's content, feeding ZIPFoundation's inflater exactly the member's bytes.
///
/// `Archive.extract(_:bufferSize:skipCRC32:progress:consumer:)` is not used for the content: on
/// Linux its inflate loop (`Data.decode`, ZIPFoundation 0.9.20) reads the archive until the deflate
/// stream ends, and once the file is exhausted it loops forever without calling the consumer, so a
/// crafted member (a stored block that never ends) hangs the reader beyond cancellation. Here the
/// provider hands over exactly the member's `compressedSize` bytes and throws if asked for more;
/// it also makes the compressed bytes consumed exact (inflate takes a whole chunk before asking for
/// the next), which the zip bomb guard needs. The archive's directory is still read by ZIPFoundation.
struct ZipMemberStream {
    /// The member's data does not fit the file, or does not end where the header says.
    enum Failure: Error, Equatable {
        case dataNotFound
        case dataPastEndOfFile
        case streamDoesNotEnd
    }

    let entry: Entry
    let dataOffset: Int64
    let compressedSize: Int64
    private let file: ExportFile

    /// Locates `entry`'s data in `file` (the archive), checking it lies within the file.
    init(entry: Entry, file: ExportFile) throws(Failure) {
        guard let offset = ZipLocalHeader.dataOffset(of: entry, in: file) else { throw .dataNotFound }
        let size = Int64(clamping: entry.compressedSize)
        guard offset <= file.size, size <= file.size - offset else { throw .dataPastEndOfFile }
        self.entry = entry
        self.file = file
        self.dataOffset = offset
        self.compressedSize = size
    }

    /// Streams the member's content in chunks of up to `bufferSize` bytes, with the compressed bytes
    /// consumed so far; returns the CRC-32 of the content.
    func stream(bufferSize: Int, _ consumer: (Data, _ consumed: Int64) throws -> Void) throws -> CRC32 {
        entry.isCompressed
            ? try inflate(bufferSize: bufferSize, consumer) : try copy(bufferSize: bufferSize, consumer)
    }

    private func copy(bufferSize: Int, _ consumer: (Data, Int64) throws -> Void) throws -> CRC32 {
        var checksum: CRC32 = 0
        var consumed: Int64 = 0
        while consumed < compressedSize {
            var chunk = Data(count: Int(min(Int64(bufferSize), compressedSize - consumed)))
            let count = try chunk.withUnsafeMutableBytes { try file.readChunk(at: dataOffset + consumed, into: $0) }
            guard count == chunk.count else { throw Failure.dataPastEndOfFile }
            consumed += Int64(count)
            checksum = Self.crc32(chunk, checksum)
            try consumer(chunk, consumed)
        }
        return checksum
    }

    private func inflate(bufferSize: Int, _ consumer: (Data, Int64) throws -> Void) throws -> CRC32 {
        var consumed: Int64 = 0
        var checksum: CRC32 = 0
        _ = try Data.decompress(
            size: compressedSize, bufferSize: bufferSize, skipCRC32: true,
            provider: { _, _ in
                guard consumed < compressedSize else { throw Failure.streamDoesNotEnd }
                // Always `bufferSize` bytes: ZIPFoundation's Linux inflater sets `avail_in` to the buffer
                // size whatever the chunk's length. Past the member's end the chunk is zero-filled, which
                // a deflate stream that has not ended yet reads as an error or asks past (then we throw).
                var chunk = Data(count: bufferSize)
                let wanted = Int(min(Int64(bufferSize), compressedSize - consumed))
                let count = try chunk.withUnsafeMutableBytes { buffer in
                    try file.readChunk(
                        at: dataOffset + consumed, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                }
                guard count == wanted else { throw Failure.dataPastEndOfFile }
                consumed += Int64(count)
                return chunk
            },
            consumer: { chunk in
                checksum = Self.crc32(chunk, checksum)
                try consumer(chunk, consumed)
            })
        return checksum
    }

    /// zlib's CRC-32 (ZIPFoundation's `skipCRC32: false` computes it byte by byte, several times slower).
    private static func crc32(_ chunk: Data, _ checksum: CRC32) -> CRC32 {
        chunk.withUnsafeBytes { bytes in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return checksum }
            return CRC32(CLibXML2.crc32(uLong(checksum), base, uInt(bytes.count)))
        }
    }
}
