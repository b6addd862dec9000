import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system library opened with `dlopen` when it is first needed (libcurl at the first request,
/// libxml2 and libsqlite3 at an import): nothing links it, so `fitiq-tui` starts without mapping it,
/// and a machine without it can still do everything else. It stays loaded for the process's life.
public struct DynamicLibrary {
    /// Why a library cannot be used: it is not there, or it lacks a function.
    public struct Missing: Error, Equatable {
        public let library: String
        /// The Debian package that installs it.
        public let package: String
        public let problem: Problem
    }

    /// What went wrong with a library, as data (FitIQWords says it).
    public enum Problem: Sendable, Equatable {
        /// `dlopen` failed; the system's own words (`dlerror`), when it gave any.
        case notOpened(systemSays: String?)
        /// The library has no function `symbol`.
        case lacks(symbol: String)
    }

    public let name: String
    /// The Debian package that installs it, named when it is missing.
    public let package: String
    private let handle: UnsafeMutableRawPointer

    /// Opens `name`; throws when it cannot.
    ///
    /// Its functions, and those of the libraries it needs, are bound at their first call (`RTLD_LAZY`),
    /// not all at the open: libcurl needs many libraries, and binding every one of their functions
    /// lengthened the open (docs/benchmarks.md "bench-startup"). The functions this program calls are
    /// looked up at the open all the same (``address(_:)``).
    public init(_ name: String, package: String) throws(Missing) {
        guard let handle = dlopen(name, RTLD_LAZY | RTLD_LOCAL) else {
            let said = dlerror().map { String(cString: $0) }
            throw Missing(library: name, package: package, problem: .notOpened(systemSays: said))
        }
        self.name = name
        self.package = package
        self.handle = handle
    }

    /// The address of `symbol`; throws (and closes the library) when it lacks it.
    public func address(_ symbol: String) throws(Missing) -> UnsafeMutableRawPointer {
        guard let address = dlsym(handle, symbol) else {
            dlclose(handle)
            throw Missing(library: name, package: package, problem: .lacks(symbol: symbol))
        }
        return address
    }

    /// The function `symbol`, as `type`; throws (and closes the library) when it lacks it.
    public func symbol<Function>(_ symbol: String, as type: Function.Type) throws(Missing) -> Function {
        unsafeBitCast(try address(symbol), to: type)
    }
}

extension Mutex {
    /// The value kept here, made by `make` on first use; after a failure, the next call tries again.
    /// A library's functions are loaded so, once a process.
    public func made<Wrapped: Sendable, Failure: Error>(
        by make: () throws(Failure) -> Wrapped
    ) throws(Failure) -> Wrapped where Value == Wrapped? {
        try withLock { (kept: inout Wrapped?) throws(Failure) -> Wrapped in
            if let kept { return kept }
            let made = try make()
            kept = made
            return made
        }
    }
}
