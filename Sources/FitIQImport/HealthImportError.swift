import FitIQCore
import FitIQLocalization
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why reading an export (Apple Health's, or another app's) failed; nothing is imported when one of
/// these is thrown.
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
    /// Nothing is at the path.
    case missing(path: String)
    /// The file is of no format `import` reads (told by its content).
    case unknownFile(path: String)
    /// The folder or zip holds no file of a format `import` reads.
    case nothingToRead(path: String)
    /// A file of a known format that cannot be read: why, as data.
    case unreadableFile(path: String, ImportError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            tr("Cannot read {path}: {reason}.", ["path": clean(path), "reason": clean(reason)])
        case .notAnExport(let path):
            tr("{path} is not an Apple Health export: expected export.zip or export.xml.", ["path": clean(path)])
        case .noExportInArchive(let path):
            tr(
                "{path} holds no Health export: no apple_health_export/*.xml member starts with <HealthData>.",
                ["path": clean(path)])
        case .damagedArchive(let path, let reason):
            tr("{path} is a damaged zip archive: {reason}.", ["path": clean(path), "reason": clean(reason)])
        case .zipBomb(let path, let maxRatio):
            tr(
                "{path} refused: the zip member inflates more than {ratio}× its compressed size (a zip bomb?).",
                ["path": clean(path), "ratio": String(maxRatio)])
        case .zipMemberLargerThanDeclared(let path, let declaredBytes):
            tr(
                "{path} refused: the zip member inflates beyond the {bytes} bytes its header declares.",
                ["path": clean(path), "bytes": String(declaredBytes)])
        case .notUTF8(let file):
            tr("{file} is not a Health export: it is not encoded as UTF-8.", ["file": clean(file)])
        case .notHealthData(let file, let rootElement):
            tr(
                "{file} is not a Health export: its root element is <{element}>, not <HealthData>.",
                ["file": clean(file), "element": clean(rootElement)])
        case .truncated(let file, let line):
            tr(
                "{file} is not a complete Health export: the XML ends early at line {line}.",
                ["file": clean(file), "line": String(line)])
        case .malformed(let file, let line, let reason):
            tr(
                "{file} is not a valid Health export: line {line}: {reason}.",
                ["file": clean(file), "line": String(line), "reason": clean(reason)])
        case .libraryMissing(let library, let package, let reason):
            tr(
                "Cannot read Health exports: {library} could not be loaded ({reason}); install the Debian package {package} (apt install {package}).",
                ["library": library, "reason": clean(reason), "package": package])
        case .missing(let path): tr("No file or folder at {path}.", ["path": clean(path)])
        case .unknownFile(let path):
            tr(
                "{path} is not a file fitiq-tui imports: its content is none of {formats}, nor an Apple Health export.",
                [
                    "path": clean(path),
                    "formats": ExportFormat.all.map { $0.described() }.joined(separator: "; "),
                ])
        case .nothingToRead(let path):
            tr("{path} holds no file fitiq-tui imports; see `fitiq-tui import --help`.", ["path": clean(path)])
        case .unreadableFile(let path, let error):
            tr("{path}: {reason}", ["path": clean(path), "reason": error.description])
        }
    }

    /// Names and messages may come from the file itself: keep escape sequences away from the terminal.
    private func clean(_ text: String) -> String {
        let flat = TextSanitizer.sanitize(text).trimmingSpaces()
        let trimmed = flat.hasSuffix(".") ? String(flat.dropLast()) : flat
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }
}

extension HealthImportError {
    /// What `read` makes of the library `name`, opened; a library that is missing, or lacks a function
    /// `read` asks for, is ``libraryMissing(library:package:reason:)``.
    static func opening<Library>(
        _ name: String, package: String, _ read: (DynamicLibrary) throws(DynamicLibrary.Missing) -> Library
    ) throws(HealthImportError) -> Library {
        do throws(DynamicLibrary.Missing) {
            return try read(DynamicLibrary(name, package: package))
        } catch {
            throw .libraryMissing(library: error.library, package: error.package, reason: error.reason)
        }
    }
}
