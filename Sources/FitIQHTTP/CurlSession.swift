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
}

/// What a finished transfer gave.
struct CurlAnswer: Sendable {
    let status: Int
    let body: Data
    let contentType: String?
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
    /// Connection 5 s (docs/design.md "Timeouts").
    static let connectTimeoutMilliseconds = 5_000

    /// The multi handle; touched by the loop thread only, and by `deinit` once no thread runs.
    private let multi: UnsafeMutableRawPointer
    private let maximumBodyBytes: Int
    private let state = Mutex(State())

    private struct State {
        /// Requests waiting for the thread, and the ids of those whose tasks were cancelled.
        var added: [Transfer] = []
        var cancelled: Set<UInt64> = []
        var isRunning = false
        var nextID: UInt64 = 0
    }

    /// libcurl's global set-up, once per process, before any handle.
    private static let globalSetUp: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    init(maximumBodyBytes: Int) {
        _ = Self.globalSetUp
        guard let multi = curl_multi_init() else { fatalError("libcurl could not make a multi handle") }
        self.multi = multi
        self.maximumBodyBytes = maximumBodyBytes
    }

    deinit {
        curl_multi_cleanup(multi)
    }

    /// Sends `request` and returns the answer, whatever its status.
    func perform(_ request: CurlRequest) async throws(CurlFailure) -> CurlAnswer {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let transfer = Transfer(
                        id: id, request: request, limit: maximumBodyBytes, continuation: continuation)
                    let start = state.withLock { state in
                        state.added.append(transfer)
                        defer { state.isRunning = true }
                        return !state.isRunning
                    }
                    if start { startThread() } else { curl_multi_wakeup(multi) }
                }
            } onCancel: {
                state.withLock { _ = $0.cancelled.insert(id) }
                curl_multi_wakeup(multi)
            }
        } catch let failure as CurlFailure {
            throw failure
        } catch {
            throw .cancelled
        }
    }

    private func startThread() {
        do {
            // The thread holds the session until its loop ends.
            try OwnThread.start { self.run() }
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
    private func run() {
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
                    curl_multi_add_handle(multi, easy)
                }
            }
            for (easy, transfer) in active where cancelled.contains(transfer.id) {
                curl_multi_remove_handle(multi, easy)
                active[easy] = nil
                transfer.finish(.failure(.cancelled))
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active.removeValue(forKey: easy)
                else { continue }
                let code = fitiq_curl_message_result(message)
                curl_multi_remove_handle(multi, easy)
                transfer.finish(transfer.outcome(code))
            }
            if !active.isEmpty || state.withLock({ !$0.added.isEmpty }) {
                curl_multi_poll(multi, nil, 0, 1_000, nil)
            }
        }
    }
}

/// One request on its way: its easy handle, header list and the answer read so far. Touched by the
/// session's thread alone once handed over.
private final class Transfer: @unchecked Sendable {
    let id: UInt64
    let request: CurlRequest
    let limit: Int
    private var continuation: CheckedContinuation<CurlAnswer, any Error>?
    private var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    var body = Data()
    var contentType: String?
    var tooLarge = false

    init(id: UInt64, request: CurlRequest, limit: Int, continuation: CheckedContinuation<CurlAnswer, any Error>) {
        self.id = id
        self.request = request
        self.limit = limit
        self.continuation = continuation
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorText.deallocate()
    }

    /// Makes the easy handle with every option; `nil` (the request failed) when it cannot.
    func start() -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else {
            finish(.failure(.transfer(code: -1, systemError: 0, text: "no easy handle", connectStatus: 0)))
            return nil
        }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }
        check(fitiq_curl_setopt_string(easy, CURLOPT_URL, request.url))
        check(fitiq_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(fitiq_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check(fitiq_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, CurlSession.connectTimeoutMilliseconds))
        check(fitiq_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds))
        // Always verified; no option here turns it off.
        check(fitiq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
        check(fitiq_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
        if let caFile = request.caFile { check(fitiq_curl_setopt_string(easy, CURLOPT_CAINFO, caFile)) }
        if let caPath = request.caPath { check(fitiq_curl_setopt_string(easy, CURLOPT_CAPATH, caPath)) }
        check(fitiq_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorText))
        check(fitiq_curl_setopt_callback(easy, CURLOPT_WRITEFUNCTION, transferWrote))
        check(fitiq_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        check(fitiq_curl_setopt_callback(easy, CURLOPT_HEADERFUNCTION, transferHeader))
        check(fitiq_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        switch request.method {
        case "GET": break
        case "POST":
            check(fitiq_curl_setopt_long(easy, CURLOPT_POST, 1))
            // A POST is not safe to repeat (a reading logged twice, a refresh token spent twice), and
            // libcurl sends a request again by itself when a reused connection dies before any answer:
            // a POST always gets a connection of its own, so that never happens to one.
            check(fitiq_curl_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1))
            check(fitiq_curl_setopt_long(easy, CURLOPT_FORBID_REUSE, 1))
        default: check(fitiq_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method))
        }
        if let body = request.body {
            check(fitiq_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            body.withUnsafeBytes { bytes in
                // Copied by libcurl: the bytes need not outlive this call.
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    check(
                        fitiq_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
                    )
                } else {
                    check(fitiq_curl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
                }
            }
        }
        // No `Expect: 100-continue` wait before a body.
        for line in request.headers + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        check(fitiq_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList))
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
        fitiq_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        fitiq_curl_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &connect)
        fitiq_curl_getinfo_long(easy, CURLINFO_OS_ERRNO, &systemError)
        guard code == CURLE_OK else {
            let detail = String(cString: errorText)
            let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .failure(
                .transfer(code: Int(code.rawValue), systemError: systemError, text: text, connectStatus: connect))
        }
        return .success(CurlAnswer(status: status, body: body, contentType: contentType))
    }

    /// Completes the request once, and frees the handle and the header list.
    func finish(_ result: Result<CurlAnswer, CurlFailure>) {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        continuation?.resume(with: result.mapError { $0 as any Error })
        continuation = nil
    }
}

/// libcurl's write callback: appends body bytes, or stops the transfer past the limit.
private func transferWrote(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
)
    -> Int
{
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = size * count
    guard transfer.body.count + bytes <= transfer.limit else {
        transfer.tooLarge = true
        return 0
    }
    transfer.body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: bytes)
    return bytes
}

/// libcurl's header callback: keeps the answer's `Content-Type` (a proxy's `CONNECT` answer comes
/// first; each status line starts afresh).
private func transferHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
)
    -> Int
{
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: bytes), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        transfer.contentType = nil
        transfer.body = Data()
    } else if let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "content-type" {
        transfer.contentType = String(line[line.index(after: colon)...]).trimmingWhitespace()
    }
    return bytes
}
