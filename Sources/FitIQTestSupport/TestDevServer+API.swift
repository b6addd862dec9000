import Foundation

/// Requests straight to a development server's API (not through `fitiq-tui`): to set up what another
/// device did, and to read what the server holds.
extension TestDevServer {
    /// An answer that was no success.
    public struct APIFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends `method /api/v1/path` with the test API key, a bearer `token` and a JSON `body`; returns the
    /// answer's `data` (the whole answer when it has none). Throws for a status outside 200–299.
    public func api(_ method: String, _ path: String, body: JSONTree? = nil, token: String? = nil) async throws
        -> JSONTree
    {
        var headers = [(name: "X-API-Key", value: configuration.apiKey)]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        let request = RawHTTP.Message(
            startLine: "\(method) /api/v1/\(path) HTTP/1.1", headers: headers, body: body?.text(pretty: false) ?? [])
        let answer = try await RawHTTP.send(request, port: port)
        guard (200..<300).contains(answer.status), let document = JSONTree(answer.body) else {
            throw APIFailure(description: "\(method) \(path): \(answer.startLine) \(answer.body.count) bytes")
        }
        return document.payload
    }

    /// An access token for `email`, from the server itself.
    public func accessToken(email: String, password: String) async throws -> String {
        let body = JSONTree.object([.init("email", .string(email)), .init("password", .string(password))])
        guard let token = try await api("POST", "auth/login", body: body)["access_token"]?.string else {
            throw APIFailure(description: "no access token for \(email)")
        }
        return token
    }

    /// Every `type` entry's quantity the server holds for the token's account, page by page.
    public func quantities(of type: String, token: String) async throws -> [Double] {
        var found: [Double] = []
        while true {
            let page = try await api(
                "GET", "progress?type=\(type)&from=1900-01-01&to=2100-01-01&limit=100&offset=\(found.count)",
                token: token)
            let entries = page["entries"]?.array ?? []
            found += entries.compactMap { $0["quantity"]?.double }
            if entries.isEmpty || Double(found.count) >= page["total"]?.double ?? 0 { return found }
        }
    }
}
