import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Streams the export member of an `export.zip` through the parser, never extracting anything to disk.
///
/// Member names are only compared, never used as paths, so `../x` or `/tmp/x` cannot write anywhere.
struct ZipExportReader {
    let url: URL
    let bufferSize: Int

    /// Reads the archive's Health export member.
    func read(_ file: ExportFile, session: ReadSession) throws -> HealthSnapshot {
        let path = url.path
        let directory: ZipCentralDirectory
        do {
            directory = try ZipCentralDirectory(file: file)
        } catch {
            throw HealthImportError.damagedArchive(path: path, reason: "its directory cannot be read (\(error.reason))")
        }
        guard let member = try exportMember(of: directory, in: file, session: session) else {
            throw HealthImportError.noExportInArchive(path: path)
        }
        let parser = try HealthXMLParser(fileName: "\(path) (\(member.entry.path))")
        try member.read(archive: path, bufferSize: bufferSize) { chunk, progress in
            try session.checkCancellation()
            try chunk.withUnsafeBytes { try parser.feed($0) }
            session.advance(to: member.dataOffset + progress)
        }
        return try parser.finish()
    }

    /// The `*.xml` member one folder deep whose first KB looks like a Health export (`export.xml` first).
    private func exportMember(of directory: ZipCentralDirectory, in file: ExportFile, session: ReadSession) throws
        -> ZipMemberStream?
    {
        let candidates = directory.entries.filter { $0.isFile && Self.isCandidate($0.path) }
        let ordered =
            candidates.filter { $0.path.hasSuffix("/export.xml") }
            + candidates.filter {
                !$0.path.hasSuffix("/export.xml")
            }
        for entry in ordered.prefix(64) {
            try session.checkCancellation()
            let member: ZipMemberStream
            do {
                member = try ZipMemberStream(entry: entry, file: file)
            } catch {
                throw Self.damaged(url.path, error)
            }
            if Self.looksLikeHealthExport(Self.head(of: member)) { return member }
        }
        return nil
    }

    static func damaged(_ path: String, _ failure: ZipMemberStream.Failure) -> HealthImportError {
        switch failure {
        case .dataNotFound:
            .damagedArchive(path: path, reason: "the export member's local header cannot be found")
        case .dataPastEndOfFile:
            .damagedArchive(path: path, reason: "the export member runs past the end of the file")
        case .streamDoesNotEnd:
            .damagedArchive(path: path, reason: "the export member's compressed data does not end where it should")
        case .corrupt(let reason):
            .damagedArchive(path: path, reason: "the export member cannot be inflated (\(reason))")
        }
    }

    /// Whether `path` is `folder/name.xml`, exactly one plain folder deep.
    static func isCandidate(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let folder = parts.first, let name = parts.last else { return false }
        return !folder.isEmpty && folder != "." && folder != ".." && !path.contains("\\")
            && name.count > 4 && name.hasSuffix(".xml")
    }

    /// Whether the first KB of a member holds `<!DOCTYPE HealthData` or a `<HealthData` start tag.
    static func looksLikeHealthExport(_ head: [UInt8]) -> Bool {
        let markers = ["<!DOCTYPE HealthData", "<HealthData ", "<HealthData>", "<HealthData\n", "<HealthData\r"]
        return markers.contains { marker in
            let needle = Array(marker.utf8)
            return head.count >= needle.count
                && (0...(head.count - needle.count)).contains { head[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }

    /// Up to the first `limit` bytes of a member's content (what could be read of it, if it is damaged).
    static func head(of member: ZipMemberStream, bytes limit: Int = 1024) -> [UInt8] {
        struct Enough: Error {}
        var head: [UInt8] = []
        do {
            _ = try member.stream(bufferSize: limit) { chunk, _ in
                head.append(contentsOf: chunk.prefix(limit - head.count))
                if head.count >= limit { throw Enough() }
            }
        } catch {
            // `Enough` ends the read early; any other error leaves what was read, judged like the rest.
        }
        return head
    }
}

extension ZipMemberStream {
    /// Streams the member's content through `consumer`, guarded against zip bombs and checked against
    /// its CRC-32; `consumer` also hears how many of the archive's bytes are behind the content so far
    /// (smooth progress). Every failure is a ``HealthImportError`` naming `archive`, the zip's path.
    func read(archive path: String, bufferSize: Int, _ consumer: (Data, _ progress: Int64) throws -> Void) throws {
        var bombGuard = ZipBombGuard(
            compressedSize: entry.compressedSize, declaredSize: entry.uncompressedSize, isCompressed: entry.isCompressed
        )
        do {
            try bombGuard.checkDeclaredSizes()
            let checksum = try stream(bufferSize: bufferSize) { chunk, consumed in
                try bombGuard.observe(chunk: chunk.count, consumed: consumed)
                try consumer(chunk, bombGuard.progress(consumed: consumed))
            }
            guard checksum == entry.checksum else {
                throw HealthImportError.damagedArchive(path: path, reason: "the export member fails its CRC-32 check")
            }
        } catch let violation as ZipBombGuard.Violation {
            switch violation {
            case .ratio: throw HealthImportError.zipBomb(path: path, maxRatio: Int(ZipBombGuard.maxRatio))
            case .largerThanDeclared:
                throw HealthImportError.zipMemberLargerThanDeclared(path: path, declaredBytes: entry.uncompressedSize)
            }
        } catch let failure as ZipMemberStream.Failure {
            throw ZipExportReader.damaged(path, failure)
        } catch let error as HealthImportError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch let error as ImportError {
            throw HealthImportError.unreadableFile(path: "\(path) (\(entry.path))", error)
        } catch {
            throw HealthImportError.damagedArchive(
                path: path, reason: "the export member cannot be inflated (\(error))")
        }
    }
}
