import CCurl
import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One request on its way: its easy handle, header list and the answer read so far. Touched by the
/// session's thread alone once handed over.
final class Transfer: @unchecked Sendable {
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
