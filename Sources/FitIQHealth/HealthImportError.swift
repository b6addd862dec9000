import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why reading an Apple Health export failed; nothing is imported when one of these is thrown.
public enum HealthImportError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The file is neither a zip archive nor XML.
    case notAnExport(path: String)
    /// The zip archive holds no `*.xml` member, one folder deep, that starts like a Health export.
    case noExportInArchive(path: String)
    /// The zip archive is damaged (bad deflate data, checksum mismatch, unreadable directory).
    case damagedArchive(path: String, reason: String)
    /// The zip member inflates far more than real exports do.
    case zipBomb(path: String, maxRatio: Int)
    /// The zip member inflates to more bytes than its header declares.
    case zipMemberLargerThanDeclared(path: String, declaredBytes: UInt64)
    /// The document is not encoded as UTF-8 (Health exports always are).
    case notUTF8(file: String)
    /// The XML is well-formed but its root element is not `<HealthData>`.
    case notHealthData(file: String, rootElement: String)
    /// The XML ends before the document is complete.
    case truncated(file: String, line: Int)
    /// The XML is not well-formed (or uses what this reader refuses, such as undeclared entities).
    case malformed(file: String, line: Int, reason: String)
    /// The XML library (loaded when an import starts) could not be loaded: not installed, or not usable.
    case libraryMissing(library: String, package: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "Cannot read \(clean(path)): \(clean(reason))."
        case .notAnExport(let path):
            "\(clean(path)) is not an Apple Health export: expected export.zip or export.xml."
        case .noExportInArchive(let path):
            "\(clean(path)) holds no Health export: no apple_health_export/*.xml member starts with <HealthData>."
        case .damagedArchive(let path, let reason):
            "\(clean(path)) is a damaged zip archive: \(clean(reason))."
        case .zipBomb(let path, let maxRatio):
            "\(clean(path)) refused: the zip member inflates more than \(maxRatio)× its compressed size (a zip bomb?)."
        case .zipMemberLargerThanDeclared(let path, let declaredBytes):
            "\(clean(path)) refused: the zip member inflates beyond the \(declaredBytes) bytes its header declares."
        case .notUTF8(let file):
            "\(clean(file)) is not a Health export: it is not encoded as UTF-8."
        case .notHealthData(let file, let rootElement):
            "\(clean(file)) is not a Health export: its root element is <\(clean(rootElement))>, not <HealthData>."
        case .truncated(let file, let line):
            "\(clean(file)) is not a complete Health export: the XML ends early at line \(line)."
        case .malformed(let file, let line, let reason):
            "\(clean(file)) is not a valid Health export: line \(line): \(clean(reason))."
        case .libraryMissing(let library, let package, let reason):
            "Cannot read Health exports: \(library) could not be loaded (\(clean(reason))); "
                + "install the Debian package \(package) (apt install \(package))."
        }
    }

    /// Names and messages may come from the file itself: keep escape sequences away from the terminal.
    private func clean(_ text: String) -> String {
        let flat = TextSanitizer.sanitize(text).trimmingSpaces()
        let trimmed = flat.hasSuffix(".") ? String(flat.dropLast()) : flat
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }
}
