import CCurl
import FitIQCore
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One request for ``CurlSession``.
struct CurlRequest: Sendable {
    var url: String
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    var method: String
    /// Whole header lines (`Name: value`), checked by the caller: no line breaks.
    var headers: [String]
    var body: Data?
    /// The whole request, connection included.
    var timeoutMilliseconds: Int
    /// The CA bundle file and folder to verify servers against; `nil`: libcurl's (the system's).
    var caFile: String?
    var caPath: String?
    /// The proxy (`""`: none) and the hosts that go direct (`no_proxy`'s syntax), from the
    /// environment the transport was given rather than the process's, which libcurl would read.
    var proxy: String
    var noProxy: String?
}

/// What a finished transfer gave.
struct CurlAnswer: Sendable {
    let status: Int
    let body: Data
    /// The answer's header fields in order, names as sent (a proxy's `CONNECT` answer left out).
    let headers: [(name: String, value: String)]

    /// The first field called `name`, whatever its case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var contentType: String? { header("Content-Type") }
}

/// Why a transfer gave no answer.
enum CurlFailure: Error, Sendable {
    /// libcurl's error `code`, the system's `errno` behind it, libcurl's text, and the status of a
    /// proxy's answer to `CONNECT` (0 when there was none).
    case transfer(code: Int, systemError: Int, text: String, connectStatus: Int)
    /// The body passed the size limit.
    case tooLarge
    case cancelled
}

/// Requests over libcurl's multi interface on one thread of its own: each request is an `async` call
/// that the thread completes, and cancelling its task cancels the transfer. Connections are kept in
/// the multi handle and reused by the next requests. The thread starts with the first request and
/// ends when no transfer is left (the next request starts it again).
final class CurlSession: @unchecked Sendable {  // The multi handle is used by the thread alone.
    /// Connection 5 s (docs/architecture.md "Timeouts").
    static let connectTimeoutMilliseconds = 5_000

    /// libcurl and the multi handle, made by the first request; the handle is touched by the loop
    /// thread (and by `curl_multi_wakeup`, which may be called from any thread), and by `deinit` once
    /// no thread runs.
    private let handles = Mutex<Handles?>(nil)
    /// The loading of ``handles`` while the first request makes them.
    private let opening = Mutex<Task<Handles, any Error>?>(nil)

    /// libcurl and one multi handle (a pointer libcurl lets any thread wake, and one thread drive).
    private struct Handles: @unchecked Sendable {
        let library: LibCurl
        let multi: UnsafeMutableRawPointer
    }
    private let maximumBodyBytes: Int
    /// What the callers hand the thread. A lock ThreadSanitizer sees (``PthreadMutex``): a transfer
    /// is made on the caller's thread and then read by the session's thread alone, libcurl's header
    /// and write callbacks included, and this lock is all that orders the two.
    private let state = PthreadMutex(State())

    private struct State {
        /// Requests waiting for the thread, and the ids of those whose tasks were cancelled.
        var added: [Transfer] = []
        var cancelled: Set<UInt64> = []
        var isRunning = false
        var nextID: UInt64 = 0
    }

    /// Nothing is loaded or made until the first request.
    init(maximumBodyBytes: Int) {
        self.maximumBodyBytes = maximumBodyBytes
    }

    deinit {
        if let made = handles.withLock({ $0 }) { _ = made.library.multiCleanup(made.multi) }
    }

    /// libcurl and the multi handle, loaded and made on first use.
    ///
    /// The first request (or ``prepare()``) loads them in a task that the requests sent meanwhile
    /// await: they suspend, leaving their threads to the rest of the work, where waiting on a lock held
    /// for the whole `dlopen` kept each one busy (a contended `Mutex` spins in the kernel while its
    /// owner runs; docs/benchmarks.md "bench-scale"). After a failure, the next request tries again.
    private func opened() async throws(CurlFailure) -> Handles {
        if let made = handles.withLock({ $0 }) { return made }
        do {
            return try await loading().value
        } catch let failure as CurlFailure {
            throw failure
        } catch {
            throw .cancelled
        }
    }

    /// Starts loading libcurl and making the multi handle, unless that is done or under way; the
    /// first request awaits it. For a caller about to send, so the load overlaps its own work. The
    /// task returned ends with the load (a failed one is tried again by the next request).
    @discardableResult
    func prepare() -> Task<Void, Never> {
        let load = handles.withLock({ $0 }) == nil ? loading() : nil
        return Task { _ = try? await load?.value }
    }

    /// Waits for a load under way (``prepare()``) to end. The process must not exit while libcurl
    /// initialises on another thread: OpenSSL's exit handlers would run beside its initialisation
    /// (a command that failed before sending died of a segmentation fault, 2 runs in 12).
    func settle() async {
        _ = try? await opening.withLock({ $0 })?.value
        await LibCurl.settle()
    }

    /// Whether libcurl is loaded and the multi handle made.
    var isOpen: Bool { handles.withLock { $0 } != nil }

    /// The task that loads libcurl and makes the multi handle: the one under way or done, or a new one.
    private func loading() -> Task<Handles, any Error> {
        opening.withLock { opening in
            if let opening { return opening }
            let task = Task { () throws -> Handles in
                // A load the process started already: joined, not waited for on its lock.
                await LibCurl.settle()
                do {
                    return try self.open()
                } catch {
                    self.opening.withLock { $0 = nil }
                    throw error
                }
            }
            opening = task
            return task
        }
    }

    /// The loading and making behind ``opened()``.
    private func open() throws(CurlFailure) -> Handles {
        let library: LibCurl
        do {
            library = try LibCurl.load()
        } catch {
            throw .transfer(code: -1, systemError: 0, text: "\(error)", connectStatus: 0)
        }
        guard let multi = library.multiInit() else {
            throw .transfer(code: -1, systemError: 0, text: "libcurl made no multi handle", connectStatus: 0)
        }
        let made = Handles(library: library, multi: multi)
        handles.withLock { $0 = made }
        return made
    }

    /// Sends `request` and returns the answer, whatever its status.
    func perform(_ request: CurlRequest) async throws(CurlFailure) -> CurlAnswer {
        let made = try await opened()
        let library = made.library
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Cancelled before it was handed over: a cancellation the loop took already
                    // would miss it.
                    if Task.isCancelled { return continuation.resume(throwing: CurlFailure.cancelled) }
                    let transfer = Transfer(
                        id: id, request: request, library: library, limit: maximumBodyBytes,
                        continuation: continuation)
                    let start = state.withLock { state in
                        state.added.append(transfer)
                        defer { state.isRunning = true }
                        return !state.isRunning
                    }
                    if start { startThread(made) } else { _ = library.multiWakeup(made.multi) }
                }
            } onCancel: {
                state.withLock { _ = $0.cancelled.insert(id) }
                _ = library.multiWakeup(made.multi)
            }
        } catch let failure as CurlFailure {
            throw failure
        } catch {
            throw .cancelled
        }
    }

    private func startThread(_ made: Handles) {
        do {
            // The thread holds the session until its loop ends.
            try OwnThread.start { self.run(made.library, made.multi) }
        } catch {
            // No thread: fail what is waiting, so nobody waits for ever.
            let waiting = state.withLock { state in
                defer { (state.added, state.isRunning) = ([], false) }
                return state.added
            }
            for transfer in waiting {
                transfer.finish(
                    .failure(.transfer(code: -1, systemError: Int(error.code), text: "\(error)", connectStatus: 0)))
            }
        }
    }

    /// The loop of the session's thread: adds new transfers, drops cancelled ones, drives libcurl
    /// and completes what finished; returns when nothing is left.
    private func run(_ library: LibCurl, _ multi: UnsafeMutableRawPointer) {
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        while true {
            let (added, cancelled) =
                state.withLock { state -> ([Transfer], Set<UInt64>)? in
                    if state.added.isEmpty && active.isEmpty {
                        state.isRunning = false
                        state.cancelled = []
                        return nil
                    }
                    defer { (state.added, state.cancelled) = ([], []) }
                    return (state.added, state.cancelled)
                } ?? ([], [])
            if added.isEmpty && active.isEmpty { return }
            for transfer in added {
                if cancelled.contains(transfer.id) {
                    transfer.finish(.failure(.cancelled))
                } else if let easy = transfer.start() {
                    active[easy] = transfer
                    _ = library.multiAddHandle(multi, easy)
                }
            }
            for (easy, transfer) in active where cancelled.contains(transfer.id) {
                _ = library.multiRemoveHandle(multi, easy)
                active[easy] = nil
                transfer.finish(.failure(.cancelled))
            }
            var running: Int32 = 0
            _ = library.multiPerform(multi, &running)
            var left: Int32 = 0
            while let message = library.multiInfoRead(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let code = fitiq_curl_message_result(message)
                _ = library.multiRemoveHandle(multi, easy)
                transfer.finish(transfer.outcome(code))
            }
            if !active.isEmpty || state.withLock({ !$0.added.isEmpty }) {
                _ = library.multiPoll(multi, nil, 0, 1_000, nil)
            }
        }
    }
}
