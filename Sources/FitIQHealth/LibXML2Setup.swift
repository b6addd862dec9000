import CLibXML2

/// One-time, process-wide libxml2 setup: initialisation and a deny-all external entity loader.
///
/// The loader is the second layer of defence: the first is that no DOCTYPE ever reaches the parser
/// (see ``DoctypeStripper``), so no entity can be declared. Should anything still ask libxml2 for an
/// external resource (`file://`, `http://`, a catalog), the loader refuses to open it. It is
/// process-wide by libxml2's design, so it also covers any other libxml2 user in the process.
enum LibXML2Setup {
    /// Swift initialises a static `let` exactly once, thread-safely, on first use.
    private static let installed: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
        return true
    }()

    /// Performs the setup if it has not happened yet.
    static func ensure() {
        _ = installed
    }
}
