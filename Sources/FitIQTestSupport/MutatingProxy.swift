import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A proxy in front of a development server on a free loopback port: it forwards every request, and
/// while it is ``mutating(_:probability:)`` it replaces each answer, with that probability, by a mutant
/// drawn from the seeded generator it was given: a ``Mutation`` of the body, a mix of them, another
/// status code, a wrong `Content-Length` or `Content-Type`, or a cut body. ``down()`` answers 503 to
/// everything. Answers are written by hand (``RawHTTP``), one per connection.
public final class MutatingProxy: Sendable {
    /// What the proxy does with the next answers.
    enum Mode {
        case honest, mutating, down
    }

    private struct State {
        var mode = Mode.honest
        var random = SeededRandom(seed: 0)
        var probability = 0.0
        var mutated: [(kind: String, request: String)] = []
    }

    /// The proxy's base URL, `http://127.0.0.1:PORT`.
    public let url: String
    private let upstream: Int
    private let listener: Int32
    private let state = Mutex(State())

    /// Starts a proxy in front of `127.0.0.1:upstream`; it answers until ``stop()``.
    public init(upstream: Int) throws {
        self.upstream = upstream
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = RawHTTP.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, bound else {
            close(listener)
            throw RawHTTP.Failure(description: "the proxy could not listen: errno \(errno)")
        }
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        self.listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    return  // stopped
                }
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                Thread.detachNewThread { self.serve(client) }
            }
        }
    }

    /// Stops listening (answers under way still finish).
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// From now on, mutates each answer with `probability`, drawing from `random`.
    public func mutating(_ random: SeededRandom, probability: Double) {
        state.withLock { $0 = State(mode: .mutating, random: random, probability: probability) }
    }

    /// From now on, answers 503 to every request.
    public func down() {
        state.withLock { $0.mode = .down }
    }

    /// From now on, forwards answers as they are; returns the answers mutated since ``mutating(_:probability:)``:
    /// each one's kind and request (`GET /api/v1/users/me`).
    @discardableResult
    public func honest() -> [(kind: String, request: String)] {
        state.withLock { state in
            state.mode = .honest
            return state.mutated
        }
    }

    private func serve(_ client: Int32) {
        defer {
            shutdown(client, Int32(SHUT_RDWR))
            close(client)
        }
        RawHTTP.setTimeout(client, seconds: 30)
        guard let request = Self.readRequest(client) else { return }
        let down = state.withLock { $0.mode == .down }
        if down {
            let answer = RawHTTP.Message(
                startLine: "HTTP/1.1 503 Mutated", headers: [("Content-Type", "application/json")],
                body: Array(#"{"error":{"message":"down"}}"#.utf8))
            try? RawHTTP.write(client, answer.bytes())
            return
        }
        var forwarded = request
        forwarded.headers.removeAll {
            ["host", "content-length", "connection", "expect"].contains($0.name.lowercased())
        }
        forwarded.headers.append(("Host", "127.0.0.1:\(upstream)"))
        guard var answer = try? RawHTTP.exchange(forwarded, port: upstream) else { return }
        answer.startLine = "HTTP/1.1 \(answer.status) Mutated"
        answer.headers.removeAll {
            ["content-length", "connection", "transfer-encoding", "date", "server"].contains($0.name.lowercased())
        }
        let (mutant, length) = state.withLock { state -> (RawHTTP.Message, String?) in
            guard state.mode == .mutating, state.random.unit() < state.probability else { return (answer, nil) }
            let (kind, mutant, length) = Self.mutant(of: answer, &state.random)
            let path = request.startLine.split(separator: " ").dropFirst().first?.split(separator: "?").first ?? ""
            let method = request.startLine.split(separator: " ").first ?? ""
            state.mutated.append((kind, "\(method) \(path)"))
            return (mutant, length)
        }
        try? RawHTTP.write(client, mutant.bytes(length: length))
    }

    /// The request on `client`, its body read whole (after `100 Continue` when the client waits for it).
    private static func readRequest(_ client: Int32) -> RawHTTP.Message? {
        var bytes: [UInt8] = []
        while RawHTTP.headerEnd(bytes) == nil {
            guard let chunk = RawHTTP.read(client) else { return nil }
            bytes += chunk
        }
        guard let head = RawHTTP.parse(bytes, body: .length), let headerEnd = RawHTTP.headerEnd(bytes) else {
            return nil
        }
        let length = head.header("Content-Length").flatMap { Int($0) } ?? 0
        if bytes.count - headerEnd < length, head.header("Expect")?.lowercased() == "100-continue" {
            try? RawHTTP.write(client, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        while bytes.count - headerEnd < length {
            guard let chunk = RawHTTP.read(client) else { return nil }
            bytes += chunk
        }
        return RawHTTP.parse(bytes, body: .length)
    }

    /// A mutant of `answer`: its kind, the answer, and the `Content-Length` to write (`nil`: the body's own).
    static func mutant(of answer: RawHTTP.Message, _ random: inout SeededRandom) -> (String, RawHTTP.Message, String?) {
        let kinds = Mutation.allCases
        let httpKinds = ["status code", "Content-Length", "Content-Type", "cut body"]
        let kind = random.pick(kinds.sorted().map(\.rawValue) + ["mix"] + httpKinds)
        var answer = answer
        var length: String?
        let body = answer.body.isEmpty ? Array("{}".utf8) : answer.body
        switch kind {
        case "status code":
            let status = random.pick([200, 201, 204, 301, 400, 401, 403, 404, 409, 410, 422, 429, 500, 502, 503, 599])
            answer.startLine = "HTTP/1.1 \(status) Mutated"
        case "Content-Length":
            let count = answer.body.count
            length = random.pick([
                "0", "\(max(0, count - random.int(in: 1...20)))", "\(count + random.int(in: 1...4096))", "-1", "abc",
                "\(1 << 40)",
            ])
        case "Content-Type":
            let value = random.pick([
                nil, "text/html", "application/octet-stream", "application/json; charset=latin1", "\u{1B}[2J",
            ])
            answer.headers.removeAll { $0.name.lowercased() == "content-type" }
            if let value { answer.headers.append(("Content-Type", value)) }
        case "cut body":
            length = "\(answer.body.count)"
            answer.body = answer.body.isEmpty ? [] : Array(answer.body.prefix(random.below(answer.body.count)))
        case "mix":
            answer.body = Mutation.mix(body, kinds: kinds, &random)
            let status = random.pick([answer.status, answer.status, 200, 500])
            answer.startLine = "HTTP/1.1 \(status) Mutated"
        default:
            answer.body = Mutation(rawValue: kind)?.apply(body, &random) ?? body
        }
        return (kind, answer, length)
    }
}
