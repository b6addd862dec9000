import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A CSV file of measurements (`import-csv`, or `i` with a `.csv` path), read from disk in pieces
/// into ``MeasurementCSV/Reader``: memory holds one piece and one row, however large the file.
public enum MeasurementCSVFile {
    /// The size of each read.
    static let chunkSize = 1 << 16

    /// Reads the file at `url`; `progress` hears how far after each piece. Throws
    /// ``HealthImportError/unreadable(path:reason:)`` when the file cannot be read, and ``ImportError``
    /// when its header is not one of the formats read.
    public static func read(
        _ url: URL, unit: String? = nil, zone: LocalZone, progress: (HealthReadProgress) -> Void = { _ in }
    ) throws -> MeasurementCSV {
        let file = try ExportFile(url: url)
        var reader = MeasurementCSV.Reader(unit: unit, zone: zone)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while true {
            let count = try file.readChunk(into: buffer)
            if count == 0 { break }
            try reader.read(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            done += Int64(count)
            progress(HealthReadProgress(bytesRead: done, totalBytes: file.size))
        }
        return try reader.finish()
    }
}
