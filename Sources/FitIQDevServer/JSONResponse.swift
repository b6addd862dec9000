import Foundation
import Hummingbird

/// Builds JSON and plain-text responses with stable key order.
enum JSONResponse {
    /// A response carrying `body` as JSON.
    static func make(status: HTTPResponse.Status, body: JSONValue) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: it holds only JSON types (non-finite numbers never enter it).
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// A success answer wrapped as `{"data": …}`.
    static func data(_ payload: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        make(status: status, body: .object(["data": payload]))
    }

    /// A plain-text answer, as Go's router writes for unknown paths.
    static func text(_ text: String, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
