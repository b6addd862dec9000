import CZlib

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Streams one zip member's content, inflating it with zlib from exactly the member's bytes.
///
/// The inflater is fed the member's `compressedSize` bytes and nothing more: a deflate stream that
/// has not ended when they run out is an error at once (an inflater that read on would copy the
/// central directory and then wait for input forever). Feeding it ourselves also tells the zip bomb
/// guard how many compressed bytes have been handed over (whole chunks) for what came out.
struct ZipMemberStream {
    /// The member's data does not fit the file, or does not end where the header says.
    enum Failure: Error, Equatable {
        case dataNotFound
        case dataPastEndOfFile
        case streamDoesNotEnd
        case corrupt(String)
    }

    let entry: ZipCentralDirectory.Entry
    let dataOffset: Int64
    let compressedSize: Int64
    private let file: ExportFile

    /// Locates `entry`'s data in `file` (the archive), checking it lies within the file.
    init(entry: ZipCentralDirectory.Entry, file: ExportFile) throws(Failure) {
        guard let offset = try? ZipCentralDirectory.dataOffset(of: entry, in: file) else { throw .dataNotFound }
        let size = Int64(clamping: entry.compressedSize)
        guard offset <= file.size, size <= file.size - offset else { throw .dataPastEndOfFile }
        self.entry = entry
        self.file = file
        self.dataOffset = offset
        self.compressedSize = size
    }

    /// Streams the member's content in chunks of up to `bufferSize` bytes, with the compressed bytes
    /// consumed so far; returns the CRC-32 of the content.
    func stream(bufferSize: Int, _ consumer: (Data, _ consumed: Int64) throws -> Void) throws -> UInt32 {
        entry.isCompressed
            ? try inflate(bufferSize: bufferSize, consumer) : try copy(bufferSize: bufferSize, consumer)
    }

    private func copy(bufferSize: Int, _ consumer: (Data, Int64) throws -> Void) throws -> UInt32 {
        var checksum: UInt32 = 0
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

    private func inflate(bufferSize: Int, _ consumer: (Data, Int64) throws -> Void) throws -> UInt32 {
        guard entry.method == 8 else {
            throw Failure.corrupt("it is compressed with method \(entry.method), not deflate")
        }
        var stream = z_stream()
        guard fitiq_inflate_init_raw(&stream) == Z_OK else { throw Failure.corrupt("zlib could not start") }
        defer { inflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: bufferSize)
        var output = [UInt8](repeating: 0, count: bufferSize)
        var consumed: Int64 = 0
        var filled = 0
        var checksum: UInt32 = 0
        var ended = false
        while !ended {
            if stream.avail_in == 0 {
                guard consumed < compressedSize else { throw Failure.streamDoesNotEnd }
                let wanted = Int(min(Int64(bufferSize), compressedSize - consumed))
                let count = try input.withUnsafeMutableBytes { buffer in
                    try file.readChunk(
                        at: dataOffset + consumed, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                }
                guard count == wanted else { throw Failure.dataPastEndOfFile }
                consumed += Int64(count)
                filled = count
                stream.avail_in = uInt(count)
            }
            let produced: Int = try input.withUnsafeMutableBufferPointer { inputBuffer in
                try output.withUnsafeMutableBufferPointer { outputBuffer in
                    // zlib keeps `next_in` across calls; point it at the unread part of the input.
                    let unread = Int(stream.avail_in)
                    stream.next_in = inputBuffer.baseAddress?.advanced(by: filled - unread)
                    if unread > 0, stream.next_in == nil { throw Failure.corrupt("no input buffer") }
                    stream.next_out = outputBuffer.baseAddress
                    stream.avail_out = uInt(outputBuffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    switch status {
                    case Z_STREAM_END: ended = true
                    case Z_OK, Z_BUF_ERROR: break
                    default:
                        let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                        throw Failure.corrupt(message)
                    }
                    return outputBuffer.count - Int(stream.avail_out)
                }
            }
            if produced > 0 {
                let chunk = Data(output[0..<produced])
                checksum = Self.crc32(chunk, checksum)
                try consumer(chunk, consumed)
            }
        }
        return checksum
    }

    /// zlib's CRC-32 of `chunk`, continuing `checksum`.
    private static func crc32(_ chunk: Data, _ checksum: UInt32) -> UInt32 {
        chunk.withUnsafeBytes { bytes in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return checksum }
            return UInt32(CZlib.crc32(uLong(checksum), base, uInt(bytes.count)))
        }
    }
}
