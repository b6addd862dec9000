import CLibXML2
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A streaming parser for one export.xml, fed in chunks: libxml2's SAX2 push parser behind a DOCTYPE stripper.
///
/// Safe settings, each a guard of its own: the DOCTYPE never reaches libxml2 (``DoctypeStripper``);
/// ``options`` are `XML_PARSE_NONET` and `XML_PARSE_IGNORE_ENC` (so an encoding declaration cannot
/// switch the byte stream to one the stripper cannot read), never `NOENT` (entities are never
/// substituted; the predefined ones and character references are decoded without it), `HUGE`,
/// `DTDLOAD`, `DTDVALID` or `RECOVER`; the SAX handler has no entity, DTD or external-subset
/// callbacks; a deny-all external entity loader is installed. Any libxml2 error fails the whole read.
/// libxml2 itself is loaded by the first parser (``LibXML2``).
final class HealthXMLParser {
    private let libxml2: LibXML2
    private let context: xmlParserCtxtPtr
    private let collector: HealthDataCollector
    private var stripper = DoctypeStripper()
    private let fileName: String

    /// Creates a parser; `fileName` names the document in error messages.
    init(fileName: String) throws {
        let libxml2 = try LibXML2.load()
        self.fileName = fileName
        let collector = HealthDataCollector(libxml2: libxml2)
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { userData, localName, _, _, _, _, attributeCount, _, attributes in
            guard let userData, let localName else { return }
            Unmanaged<HealthDataCollector>.fromOpaque(userData).takeUnretainedValue()
                .startElement(localName, attributeCount: Int(attributeCount), attributes: attributes)
        }
        handler.endElementNs = { userData, _, _, _ in
            guard let userData else { return }
            Unmanaged<HealthDataCollector>.fromOpaque(userData).takeUnretainedValue().endElement()
        }
        handler.serror = { userData, error in
            guard let userData, let error else { return }
            Unmanaged<HealthDataCollector>.fromOpaque(userData).takeUnretainedValue().report(error)
        }
        // The collector outlives the context: this parser owns both and frees the context first.
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        guard let context = libxml2.createPushParserCtxt(&handler, userData, nil, 0, nil) else {
            throw HealthImportError.unreadable(path: fileName, reason: "libxml2 could not create a parser")
        }
        _ = libxml2.ctxtUseOptions(context, Self.options)
        collector.context = context
        self.libxml2 = libxml2
        self.context = context
        self.collector = collector
    }

    /// The libxml2 parser options (see the type's summary).
    static let options = Int32(XML_PARSE_NONET | XML_PARSE_IGNORE_ENC)

    deinit {
        collector.context = nil
        libxml2.freeParserCtxt(context)
    }

    /// Parses the next chunk of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        do {
            try stripper.process(bytes) { try parse($0, terminate: false) }
        } catch let failure as DoctypeStripper.Failure {
            throw mapped(failure)
        }
    }

    /// Ends the document and returns what it held; throws if it is incomplete or not a Health export.
    func finish() throws -> HealthSnapshot {
        do {
            try stripper.finish { try parse($0, terminate: false) }
        } catch let failure as DoctypeStripper.Failure {
            throw mapped(failure)
        }
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        var snapshot = HealthSnapshot(
            biologicalSex: collector.biologicalSex, dateOfBirth: collector.dateOfBirth,
            samples: collector.samples.sorted { $0.measuredAt < $1.measuredAt }, exportedAt: collector.exportedAt)
        snapshot.activity = collector.activity
        snapshot.refusedRecords = collector.refused
        snapshot.refusedRecordCount = collector.refusedCount
        return snapshot
    }

    private func parse(_ bytes: UnsafeRawBufferPointer, terminate: Bool) throws {
        var offset = 0
        repeat {
            // xmlParseChunk takes an Int32 size; chunks are about 1 MiB, but stay correct for any size.
            let count = min(bytes.count - offset, 1 << 30)
            let start = bytes.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) }
            let last = terminate && offset + count == bytes.count
            _ = libxml2.parseChunk(context, start, Int32(count), last ? 1 : 0)
            offset += count
            try checkErrors(atEnd: last)
        } while offset < bytes.count
    }

    private func checkErrors(atEnd: Bool) throws {
        if let root = collector.rootElement, root != "HealthData" {
            throw HealthImportError.notHealthData(file: fileName, rootElement: root)
        }
        guard let error = collector.firstError else { return }
        if atEnd && Self.isEndOfInput(error.code) {
            throw HealthImportError.truncated(file: fileName, line: error.line)
        }
        if Int(error.code) == XML_ERR_INVALID_CHAR && error.message.contains("UTF-8") {
            throw HealthImportError.notUTF8(file: fileName)
        }
        throw HealthImportError.malformed(file: fileName, line: error.line, reason: error.message)
    }

    /// Errors libxml2 raises when the input stops in the middle of the document.
    private static func isEndOfInput(_ code: Int32) -> Bool {
        let codes = [
            XML_ERR_DOCUMENT_END, XML_ERR_DOCUMENT_EMPTY, XML_ERR_TAG_NOT_FINISHED, XML_ERR_LTSLASH_REQUIRED,
            XML_ERR_GT_REQUIRED, XML_ERR_ATTRIBUTE_NOT_FINISHED, XML_ERR_ATTRIBUTE_WITHOUT_VALUE,
            XML_ERR_LITERAL_NOT_FINISHED, XML_ERR_NAME_REQUIRED, XML_ERR_SPACE_REQUIRED,
        ]
        return codes.contains { $0 == Int(code) }
    }

    private func mapped(_ failure: DoctypeStripper.Failure) -> HealthImportError {
        switch failure {
        case .notUTF8:
            .notUTF8(file: fileName)
        case .doctypeTooLong(let line):
            .malformed(file: fileName, line: line, reason: "the DOCTYPE does not end within 1 MB")
        case .unterminatedDoctype(let line):
            .truncated(file: fileName, line: line)
        }
    }
}
