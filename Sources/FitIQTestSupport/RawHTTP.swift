import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 by hand on loopback sockets, one request a connection (`Connection: close`): for test servers
/// that must write what no HTTP library writes (any status, a wrong `Content-Length`, a cut body), and for
/// requests straight to a development server. Blocking calls: each runs on a thread of its own.
public enum RawHTTP {
    /// Why a request got no answer.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A request or an answer: its first line, its header fields in order, its body.
    public struct Message: Sendable {
        public var startLine: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(startLine: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.startLine = startLine
            self.headers = headers
            self.body = body
        }

        /// The value of the first field named `name` (any case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// An answer's status code (0 when the first line has none).
        public var status: Int {
            startLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        }

        /// The message as sent, with `Content-Length` (`length`, else the body's own) and `Connection: close`.
        public func bytes(length: String? = nil) -> [UInt8] {
            var lines = [startLine] + headers.map { "\($0.name): \($0.value)" }
            lines += ["Content-Length: \(length ?? "\(body.count)")", "Connection: close"]
            return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
        }
    }

    /// Sends `request` to `127.0.0.1:port` and returns the answer, read until the server closes.
    public static func send(_ request: Message, port: Int, timeout: Int = 30) async throws -> Message {
        try await onThread { try exchange(request, port: port, timeout: timeout) }
    }

    /// ``send(_:port:timeout:)`` on the calling thread.
    public static func exchange(_ request: Message, port: Int, timeout: Int = 30) throws -> Message {
        let socket = try connect(port: port, timeout: timeout)
        defer { close(socket) }
        try write(socket, request.bytes())
        var answer: [UInt8] = []
        while let chunk = read(socket) { answer += chunk }
        guard let parsed = parse(answer, body: .untilEnd) else {
            throw Failure(description: "no HTTP answer from port \(port): \(answer.count) bytes")
        }
        return parsed
    }

    /// How a message's body ends.
    enum BodyEnd {
        /// The answer's: chunks, else `Content-Length`, else the connection's end.
        case untilEnd
        /// A request's: `Content-Length` (none: no body).
        case length
    }

    /// Where the header ends (after the empty line), or `nil` while it has not come.
    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 1] == 0x0D && bytes[index] == 0x0A {
            return index + 1
        }
        return nil
    }

    /// A whole message, or `nil` when `bytes` holds none.
    static func parse(_ bytes: [UInt8], body end: BodyEnd) -> Message? {
        guard let headerEnd = headerEnd(bytes) else { return nil }
        let lines = String(decoding: bytes[..<(headerEnd - 4)], as: UTF8.self).components(separatedBy: "\r\n")
        var message = Message(startLine: lines[0])
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            message.headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let rest = Array(bytes[headerEnd...])
        let length = message.header("Content-Length").flatMap { Int($0) }
        if end == .untilEnd, message.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            message.body = dechunked(rest)
        } else if let length {
            message.body = Array(rest.prefix(length))
        } else {
            message.body = end == .untilEnd ? rest : []
        }
        return message
    }

    /// The body of a chunked message.
    static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        var at = 0
        while at < bytes.count {
            guard let lineEnd = bytes[at...].firstIndex(of: 0x0A) else { break }
            let sizeText = String(decoding: bytes[at..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespacesAndNewlines), radix: 16), size > 0 else {
                break
            }
            let start = lineEnd + 1
            body += bytes[start..<min(bytes.count, start + size)]
            at = start + size + 2
        }
        return body
    }

    // MARK: Sockets

    /// A socket connected to `127.0.0.1:port`, whose reads and writes give up after `timeout` seconds.
    static func connect(port: Int, timeout: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        setTimeout(socket, seconds: timeout)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(socket)
            throw Failure(description: "connect to port \(port): \(String(cString: strerror(error)))")
        }
        return socket
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A hang guard on `socket`'s reads and writes.
    static func setTimeout(_ socket: Int32, seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(socket, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Writes all of `bytes`; throws when the other side is gone.
    static func write(_ socket: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// The next bytes read, or `nil` at the end (or an error, or the timeout).
    static func read(_ socket: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            return count > 0 ? Array(buffer[..<count]) : nil
        }
    }

    /// Runs blocking `work` on a thread of its own, so that it holds none of the tasks' few threads.
    public static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
