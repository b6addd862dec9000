import CLibXML2
import FitIQCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// libxml2, opened with `dlopen` when the first export is read, and the functions the reader calls.
///
/// Nothing links libxml2 (nor the ICU libraries Debian's libxml2 links): `fitiq-tui` starts without
/// them and only an import loads them. The library stays loaded for the rest of the process.
///
/// Loading also sets libxml2 up once: initialisation and a deny-all external entity loader. The
/// loader is the second layer of defence: the first is that no DOCTYPE ever reaches the parser (see
/// ``DoctypeStripper``), so no entity can be declared. Should anything still ask libxml2 for an
/// external resource (`file://`, `http://`, a catalog), the loader refuses to open it. It is
/// process-wide by libxml2's design, so it also covers any other libxml2 user in the process.
struct LibXML2: @unchecked Sendable {  // C function pointers, set once and never changed.
    /// The library's file name (its soname).
    static let libraryName = "libxml2.so.2"
    /// The Debian package that installs it.
    static let packageName = "libxml2"

    let createPushParserCtxt: fitiq_xmlCreatePushParserCtxt
    let ctxtUseOptions: fitiq_xmlCtxtUseOptions
    let parseChunk: fitiq_xmlParseChunk
    let stopParser: fitiq_xmlStopParser
    let freeParserCtxt: fitiq_xmlFreeParserCtxt
    let sax2GetLineNumber: fitiq_xmlSAX2GetLineNumber

    private static let shared = Mutex<LibXML2?>(nil)

    /// The loaded library, loading and setting it up on first use; throws
    /// ``HealthImportError/libraryMissing(library:package:reason:)`` when it cannot be loaded (and
    /// tries again on the next call).
    static func load() throws(HealthImportError) -> LibXML2 {
        try shared.made { () throws(HealthImportError) -> LibXML2 in try open(libraryName) }
    }

    /// Whether libxml2 is mapped into this process (by anyone), without loading it.
    static var isLoaded: Bool {
        guard let handle = dlopen(libraryName, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    /// Opens the library `name` and sets it up; `load()` passes ``libraryName``.
    static func open(_ name: String) throws(HealthImportError) -> LibXML2 {
        try HealthImportError.opening(name, package: packageName) { library throws(DynamicLibrary.Missing) in
            let initParser = try library.symbol("xmlInitParser", as: fitiq_xmlInitParser.self)
            let setExternalEntityLoader = try library.symbol(
                "xmlSetExternalEntityLoader", as: fitiq_xmlSetExternalEntityLoader.self)
            let loaded = LibXML2(
                createPushParserCtxt: try library.symbol(
                    "xmlCreatePushParserCtxt", as: fitiq_xmlCreatePushParserCtxt.self),
                ctxtUseOptions: try library.symbol("xmlCtxtUseOptions", as: fitiq_xmlCtxtUseOptions.self),
                parseChunk: try library.symbol("xmlParseChunk", as: fitiq_xmlParseChunk.self),
                stopParser: try library.symbol("xmlStopParser", as: fitiq_xmlStopParser.self),
                freeParserCtxt: try library.symbol("xmlFreeParserCtxt", as: fitiq_xmlFreeParserCtxt.self),
                sax2GetLineNumber: try library.symbol("xmlSAX2GetLineNumber", as: fitiq_xmlSAX2GetLineNumber.self))
            initParser()
            _ = setExternalEntityLoader { _, _, _ in nil }
            return loaded
        }
    }
}
