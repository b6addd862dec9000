import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads a table (CSV) file of any of the formats as its bytes arrive, one row at a time: memory holds
/// at most ``maximumRowBytes`` of a row, however long the file or its lines. UTF-8 (a byte-order mark
/// and CRLF line ends are fine), RFC 4180 quotes, and the separator `,`, `;` or tab that the header has
/// most of. The header says the format (the first of ``ExportFormat/all`` that recognises it); lines
/// before it (an app's metadata, `#Units:`) are handed to the format.
public struct TableReader: Sendable {
    /// The longest row read: every format's rows are a few dozen bytes.
    public static let maximumRowBytes = 4_096
    /// Lines before the header that may be an app's metadata: a file whose header is not among them is
    /// of no format read.
    static let maximumPreambleLines = 8
    /// The separators a header may use, tried in this order.
    static let separators: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    private let options: ImportOptions
    private let formats: [ExportFormat]
    private var preamble: [String] = []
    private var firstLine: String?
    /// Set once the header is read.
    private var file: FileReadings?
    private var rows: (any TableRows)?
    private var columns: [String] = []
    private var separator = UInt8(ascii: ",")
    /// The row being read, and whether it outgrew the limit (the rest of it is not kept).
    private var row: [UInt8] = []
    private var rowTooLong = false
    private var quoted = false
    /// The line being read, and the one the row being read started on (a quoted field may hold line
    /// breaks).
    private var line = 1
    private var rowLine = 1

    /// A reader of the tables of `formats` (every format, by default), with what a file leaves open.
    public init(_ options: ImportOptions, formats: [ExportFormat] = ExportFormat.all) {
        self.options = options
        self.formats = formats
        row.reserveCapacity(256)
    }

    /// Reads `text` whole.
    public static func read(_ text: String, _ options: ImportOptions) throws(ImportError) -> FileReadings {
        var reader = TableReader(options)
        try reader.read(text.utf8)
        return try reader.finish()
    }

    /// The table format a file's first bytes show (its lines up to the header), or `nil`.
    static func format(ofHead head: [UInt8], among formats: [ExportFormat] = ExportFormat.all) -> String? {
        guard let end = head.lastIndex(of: UInt8(ascii: "\n")) else { return nil }
        var reader = TableReader(ImportOptions(zone: .utc), formats: formats)
        try? reader.read(head[...end])
        return reader.format
    }

    /// The name of the format its header showed, once read.
    public var format: String? { file?.format }

    /// Reads the next bytes of the file, copied into one buffer first (for text at hand; a file is read
    /// in pieces straight from its buffer).
    public mutating func read(_ bytes: some Collection<UInt8>) throws(ImportError) {
        var failure: ImportError?
        Array(bytes).withUnsafeBytes { buffer in
            do throws(ImportError) {
                try read(buffer)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Reads the next bytes of the file. Throws when the header is not one of the formats read.
    /// (Not generic: called from another module, a generic loop over bytes would not be specialised.)
    public mutating func read(_ bytes: UnsafeRawBufferPointer) throws(ImportError) {
        // Every byte the rules look at (quote, line feed, separators) is ASCII: one pass over bytes.
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                line += 1
                if !quoted {
                    try endRow()
                    continue
                }
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            }
            if row.count < Self.maximumRowBytes {
                row.append(byte)
            } else {
                rowTooLong = true
            }
        }
    }

    /// What the file held, once every byte is read.
    public mutating func finish() throws(ImportError) -> FileReadings {
        if !row.isEmpty || rowTooLong { try endRow() }
        guard var file, var rows else {
            if let firstLine { throw .unknownHeader(firstLine, formats: ExportFormat.tablesDescribed) }
            throw .empty
        }
        try rows.finish(into: &file)
        return file
    }

    private mutating func endRow() throws(ImportError) {
        defer {
            row.removeAll(keepingCapacity: true)
            rowTooLong = false
            rowLine = line
        }
        // Taken out while it grows, so that its arrays are not shared and copied for every row.
        guard var file = file.take(), var rows = rows.take() else {
            try readHeader()
            return
        }
        defer {
            self.file = file
            self.rows = rows
        }
        let blank = { (byte: UInt8) in
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        guard rowTooLong || !row.allSatisfy(blank) else { return }
        guard !rowTooLong else {
            file.badRows.append(BadRow(line: rowLine, rule: .rowTooLong(bytes: Self.maximumRowBytes)))
            return
        }
        guard String(validating: row, as: UTF8.self) != nil else {
            file.badRows.append(BadRow(line: rowLine, rule: .notUTF8))
            return
        }
        var fields = Self.split(row, separator)
        // Samsung Health ends every row with a separator its header may lack.
        if fields.count == columns.count + 1, fields.last?.isEmpty == true { fields.removeLast() }
        guard fields.count == columns.count else {
            file.badRows.append(
                BadRow(line: rowLine, rule: .fieldCount(fields: fields.count, columns: columns.count)))
            return
        }
        rows.read(Dictionary(zip(columns, fields)) { first, _ in first }, line: rowLine, into: &file)
    }

    /// A line before the first row: the header when a format recognises it, else an app's metadata (up
    /// to ``maximumPreambleLines`` of them).
    private mutating func readHeader() throws(ImportError) {
        var header = row[...]
        if header.starts(with: [0xEF, 0xBB, 0xBF]) { header = header.dropFirst(3) }
        guard !rowTooLong, let text = String(validating: header, as: UTF8.self) else {
            throw .unknownHeader(
                TextSanitizer.sanitize(String(decoding: header.prefix(120), as: UTF8.self)),
                formats: ExportFormat.tablesDescribed)
        }
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return }
        if firstLine == nil { firstLine = TextSanitizer.sanitize(String(trimmed.prefix(120))) }
        // A header may stand behind a `#` (Libra's `#date;weight;…`).
        var candidates = [header]
        if trimmed.hasPrefix("#") { candidates.append(header.drop { $0 != UInt8(ascii: "#") }.dropFirst()) }
        for candidate in candidates {
            guard let found = recognise(candidate) else { continue }
            separator = found.separator
            columns = found.columns
            var file = found.format.emptyReadings()
            if let read = found.layout.columnsRead {
                file.skippedColumns = columns.filter { !read.contains($0) && !$0.isEmpty }
            }
            rows = found.layout.rows(options, preamble)
            self.file = file
            return
        }
        preamble.append(trimmed.lowercased())
        guard preamble.count <= Self.maximumPreambleLines else {
            throw .unknownHeader(firstLine ?? "", formats: ExportFormat.tablesDescribed)
        }
    }

    private struct Recognised {
        var format: ExportFormat
        var layout: TableLayout
        var columns: [String]
        var separator: UInt8
    }

    /// The first format whose header `header` is, split at the separator it has most of.
    private func recognise(_ header: ArraySlice<UInt8>) -> Recognised? {
        let separator =
            Self.separators.max { Self.split(header, $0).count < Self.split(header, $1).count }
            ?? UInt8(ascii: ",")
        var columns = Self.split(header, separator).map { $0.trimmingWhitespace().lowercased() }
        while columns.last == "" { columns.removeLast() }
        for format in formats {
            guard case .table(let layout) = format.layout, let named = layout.recognise(columns, preamble) else {
                continue
            }
            return Recognised(format: format, layout: layout, columns: named, separator: separator)
        }
        return nil
    }

    /// One record's fields, with RFC 4180 quotes (`""` inside a quoted field is one quote); a carriage
    /// return outside quotes (a CRLF line end) is dropped.
    static func split(_ record: some Collection<UInt8>, _ separator: UInt8) -> [String] {
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = record.startIndex
        while index < record.endIndex {
            let byte = record[index]
            let next = record.index(after: index)
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if next < record.endIndex, record[next] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index = record.index(after: next)
                        continue
                    }
                    quoted = false
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == separator {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte != UInt8(ascii: "\r") {
                field.append(byte)
            }
            index = next
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }
}
