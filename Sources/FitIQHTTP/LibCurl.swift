import CCurl
import FitIQCore
import FitIQLocalization
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// libcurl, opened with `dlopen` on first use (Debian's `libcurl4`), and set up once: nothing links
/// it, so the editor's first frame never waits for the loader to map it and the libraries it needs.
struct LibCurl: @unchecked Sendable {  // C function pointers, set once and never changed.
    /// The library's file name (its soname).
    static let libraryName = "libcurl.so.4"
    /// The Debian package that installs it.
    static let packageName = "libcurl4"

    let multiInit: fitiq_curl_multi_init
    let multiCleanup: fitiq_curl_multi_cleanup
    let multiWakeup: fitiq_curl_multi_wakeup
    let multiAddHandle: fitiq_curl_multi_add_handle
    let multiRemoveHandle: fitiq_curl_multi_remove_handle
    let multiPerform: fitiq_curl_multi_perform
    let multiPoll: fitiq_curl_multi_poll
    let multiInfoRead: fitiq_curl_multi_info_read
    let easyInit: fitiq_curl_easy_init
    let easyCleanup: fitiq_curl_easy_cleanup
    let easyStrerror: fitiq_curl_easy_strerror
    let slistAppend: fitiq_curl_slist_append
    let slistFreeAll: fitiq_curl_slist_free_all
    /// `curl_easy_setopt` and `curl_easy_getinfo`, for the shim's typed wrappers (they are variadic).
    let setopt: UnsafeMutableRawPointer
    let getinfo: UnsafeMutableRawPointer

    /// Why libcurl cannot be used.
    struct Missing: Error, CustomStringConvertible {
        let reason: String
        var description: String {
            tr(
                "{library} cannot be loaded ({reason}): install the {package} package",
                ["library": LibCurl.libraryName, "reason": reason, "package": LibCurl.packageName])
        }
    }

    private static let shared = Mutex<LibCurl?>(nil)

    /// The loaded library, loading and setting it up on first use (and trying again after a failure).
    /// A caller that can wait awaits ``settle()`` first: a load under way holds the lock until it ends.
    static func load() throws(Missing) -> LibCurl {
        try shared.made { () throws(Missing) -> LibCurl in try open(libraryName) }
    }

    /// The load ``preload()`` started, if any.
    private static let preloading = Mutex<Task<Void, Never>?>(nil)

    /// Starts loading the library on a thread of the pool, once per process, for a program that will
    /// send before long: a command starts it before it parses its arguments and reads the cache.
    static func preload() {
        preloading.withLock { task in
            if task == nil { task = Task.detached { _ = try? load() } }
        }
    }

    /// Waits for a ``preload()`` under way to end (none started: returns at once). The process must
    /// not exit while libcurl initialises on another thread: OpenSSL's exit handlers would run beside
    /// its initialisation.
    static func settle() async {
        await preloading.withLock({ $0 })?.value
    }

    private static func open(_ name: String) throws(Missing) -> LibCurl {
        let (library, globalInit): (LibCurl, fitiq_curl_global_init)
        do {
            let opened = try DynamicLibrary(name, package: packageName)
            globalInit = try opened.symbol("curl_global_init", as: fitiq_curl_global_init.self)
            library = LibCurl(
                multiInit: try opened.symbol("curl_multi_init", as: fitiq_curl_multi_init.self),
                multiCleanup: try opened.symbol("curl_multi_cleanup", as: fitiq_curl_multi_cleanup.self),
                multiWakeup: try opened.symbol("curl_multi_wakeup", as: fitiq_curl_multi_wakeup.self),
                multiAddHandle: try opened.symbol("curl_multi_add_handle", as: fitiq_curl_multi_add_handle.self),
                multiRemoveHandle: try opened.symbol(
                    "curl_multi_remove_handle", as: fitiq_curl_multi_remove_handle.self),
                multiPerform: try opened.symbol("curl_multi_perform", as: fitiq_curl_multi_perform.self),
                multiPoll: try opened.symbol("curl_multi_poll", as: fitiq_curl_multi_poll.self),
                multiInfoRead: try opened.symbol("curl_multi_info_read", as: fitiq_curl_multi_info_read.self),
                easyInit: try opened.symbol("curl_easy_init", as: fitiq_curl_easy_init.self),
                easyCleanup: try opened.symbol("curl_easy_cleanup", as: fitiq_curl_easy_cleanup.self),
                easyStrerror: try opened.symbol("curl_easy_strerror", as: fitiq_curl_easy_strerror.self),
                slistAppend: try opened.symbol("curl_slist_append", as: fitiq_curl_slist_append.self),
                slistFreeAll: try opened.symbol("curl_slist_free_all", as: fitiq_curl_slist_free_all.self),
                setopt: try opened.address("curl_easy_setopt"), getinfo: try opened.address("curl_easy_getinfo"))
        } catch {
            throw Missing(reason: reason(error.problem))
        }
        // Once per process, before any handle (the library is never unloaded).
        guard globalInit(Int(CURL_GLOBAL_ALL)) == CURLE_OK else { throw Missing(reason: "curl_global_init failed") }
        return library
    }

    /// Why the library cannot be used, in a few words, as FitIQWords says it for the libraries of an
    /// import (this module does not import FitIQWords).
    private static func reason(_ problem: DynamicLibrary.Problem) -> String {
        switch problem {
        case .notOpened(let said): said ?? tr("dlopen failed")
        case .lacks(let symbol): tr("it has no {function}", ["function": symbol])
        }
    }
}
