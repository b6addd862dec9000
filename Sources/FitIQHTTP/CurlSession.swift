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
    private let state = Mutex(State())

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
    /// The first request loads them in a task that the requests sent meanwhile await: they suspend,
    /// leaving their threads to the rest of the work, where waiting on a lock held for the 3 ms of the
    /// `dlopen` kept each one busy (a contended `Mutex` spins in the kernel while its owner runs: 7%
    /// of the samples of a first sync of an empty account). After a failure, the next request tries
    /// again.
    private func opened() async throws(CurlFailure) -> Handles {
        if let made = handles.withLock({ $0 }) { return made }
        let task = opening.withLock { opening in
            if let opening { return opening }
            let task = Task { () throws -> Handles in
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
        do {
            return try await task.value
        } catch let failure as CurlFailure {
            throw failure
        } catch {
            throw .cancelled
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

/// One request on its way: its easy handle, header list and the answer read so far. Touched by the
/// session's thread alone once handed over.
private final class Transfer: @unchecked Sendable {
    let id: UInt64
    let request: CurlRequest
    let library: LibCurl
    let limit: Int
    private var continuation: CheckedContinuation<CurlAnswer, any Error>?
    private var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    var body = Data()
    var headers: [(name: String, value: String)] = []
    var tooLarge = false

    init(
        id: UInt64, request: CurlRequest, library: LibCurl, limit: Int,
        continuation: CheckedContinuation<CurlAnswer, any Error>
    ) {
        self.id = id
        self.request = request
        self.library = library
        self.limit = limit
        self.continuation = continuation
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorText.deallocate()
    }

    /// Makes the easy handle with every option; `nil` (the request failed) when it cannot.
    func start() -> UnsafeMutableRawPointer? {
        guard let easy = library.easyInit() else {
            finish(.failure(.transfer(code: -1, systemError: 0, text: "no easy handle", connectStatus: 0)))
            return nil
        }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_URL, request.url))
        check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_NOSIGNAL, 1))
        check(
            fitiq_curl_setopt_long(
                library.setopt, easy, CURLOPT_CONNECTTIMEOUT_MS, CurlSession.connectTimeoutMilliseconds))
        check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds))
        // Always verified; no option here turns it off.
        check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_SSL_VERIFYPEER, 1))
        check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_SSL_VERIFYHOST, 2))
        if let caFile = request.caFile { check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_CAINFO, caFile)) }
        check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_PROXY, request.proxy))
        if let noProxy = request.noProxy {
            check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_NOPROXY, noProxy))
        }
        if let caPath = request.caPath { check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_CAPATH, caPath)) }
        check(fitiq_curl_setopt_pointer(library.setopt, easy, CURLOPT_ERRORBUFFER, errorText))
        check(fitiq_curl_setopt_callback(library.setopt, easy, CURLOPT_WRITEFUNCTION, transferWrote))
        check(fitiq_curl_setopt_pointer(library.setopt, easy, CURLOPT_WRITEDATA, context))
        check(fitiq_curl_setopt_callback(library.setopt, easy, CURLOPT_HEADERFUNCTION, transferHeader))
        check(fitiq_curl_setopt_pointer(library.setopt, easy, CURLOPT_HEADERDATA, context))
        switch request.method {
        case "GET": break
        case "POST":
            check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_POST, 1))
            // A POST is not safe to repeat (a reading logged twice, a refresh token spent twice), and
            // libcurl sends a request again by itself when a reused connection dies before any answer:
            // a POST always gets a connection of its own, so that never happens to one.
            check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_FRESH_CONNECT, 1))
            check(fitiq_curl_setopt_long(library.setopt, easy, CURLOPT_FORBID_REUSE, 1))
        default: check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
        if let body = request.body {
            check(fitiq_curl_setopt_offset(library.setopt, easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            body.withUnsafeBytes { bytes in
                // Copied by libcurl: the bytes need not outlive this call.
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    check(
                        fitiq_curl_setopt_pointer(
                            library.setopt, easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
                    )
                } else {
                    check(fitiq_curl_setopt_string(library.setopt, easy, CURLOPT_COPYPOSTFIELDS, ""))
                }
            }
        }
        // No `Expect: 100-continue` wait before a body.
        for line in request.headers + ["Expect:"] {
            headerList = library.slistAppend(headerList, line)
        }
        check(fitiq_curl_setopt_pointer(library.setopt, easy, CURLOPT_HTTPHEADER, headerList))
        guard ok else {
            finish(.failure(.transfer(code: -1, systemError: 0, text: "libcurl refused an option", connectStatus: 0)))
            return nil
        }
        return easy
    }

    /// The answer or the failure of the transfer that ended with `code`.
    func outcome(_ code: CURLcode) -> Result<CurlAnswer, CurlFailure> {
        guard let easy else { return .failure(.cancelled) }
        if tooLarge { return .failure(.tooLarge) }
        var status = 0
        var connect = 0
        var systemError = 0
        fitiq_curl_getinfo_long(library.getinfo, easy, CURLINFO_RESPONSE_CODE, &status)
        fitiq_curl_getinfo_long(library.getinfo, easy, CURLINFO_HTTP_CONNECTCODE, &connect)
        fitiq_curl_getinfo_long(library.getinfo, easy, CURLINFO_OS_ERRNO, &systemError)
        guard code == CURLE_OK else {
            let detail = String(cString: errorText)
            let text =
                detail.isEmpty
                ? library.easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)" : detail
            return .failure(
                .transfer(code: Int(code.rawValue), systemError: systemError, text: text, connectStatus: connect))
        }
        return .success(CurlAnswer(status: status, body: body, headers: headers))
    }

    /// Completes the request once, and frees the handle and the header list.
    func finish(_ result: Result<CurlAnswer, CurlFailure>) {
        if let easy { library.easyCleanup(easy) }
        easy = nil
        if let headerList { library.slistFreeAll(headerList) }
        headerList = nil
        continuation?.resume(with: result.mapError { $0 as any Error })
        continuation = nil
    }
}

/// What libcurl's write and header callbacks share: the transfer behind `context`, and the bytes.
private func received(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?,
    _ take: (Transfer, UnsafeBufferPointer<UInt8>) -> Int
) -> Int {
    guard let data, let context else { return 0 }
    let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
    return take(Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue(), bytes)
}

/// libcurl's write callback: appends body bytes, or stops the transfer past the limit.
private func transferWrote(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    received(data, size, count, context) { transfer, bytes in
        guard transfer.body.count + bytes.count <= transfer.limit else {
            transfer.tooLarge = true
            return 0
        }
        transfer.body.append(bytes)
        return bytes.count
    }
}

/// libcurl's header callback: keeps the answer's header fields (a proxy's `CONNECT` answer comes
/// first; each status line starts afresh).
private func transferHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    received(data, size, count, context) { transfer, bytes in
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            transfer.headers = []
            transfer.body = Data()
        } else if let colon = line.firstIndex(of: ":") {
            transfer.headers.append(
                (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingWhitespace()))
        }
        return bytes.count
    }
}
