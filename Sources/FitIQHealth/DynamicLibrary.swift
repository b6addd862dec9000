#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system library opened with `dlopen` when an import first needs it (libxml2, libsqlite3): nothing
/// links it, so `fitiq-tui` starts without it, and a machine without it can still do everything else.
struct DynamicLibrary {
    let name: String
    /// The Debian package that installs it, named when it is missing.
    let package: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name`; throws ``HealthImportError/libraryMissing(library:package:reason:)`` when it cannot.
    init(_ name: String, package: String) throws {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw HealthImportError.libraryMissing(
                library: name, package: package, reason: dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        self.name = name
        self.package = package
        self.handle = handle
    }

    /// The function `symbol`, as `type`; throws (and closes the library) when it lacks it.
    func symbol<Function>(_ symbol: String, as type: Function.Type) throws -> Function {
        guard let address = dlsym(handle, symbol) else {
            dlclose(handle)
            throw HealthImportError.libraryMissing(library: name, package: package, reason: "it has no \(symbol)")
        }
        return unsafeBitCast(address, to: type)
    }
}
