import Foundation
import Hummingbird

/// The JSON object of a request body, with typed reads that tell absent, `null` and wrong-typed keys apart.
struct RequestPayload: Sendable {
    /// The largest body the server reads.
    static let maximumBodySize = 64 * 1024

    let fields: [String: JSONValue]

    init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// Reads the request body as one JSON object; anything else is `invalid`.
    static func read(from request: Request, invalid: APIError = .invalidPayload) async throws -> RequestPayload {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maximumBodySize)
        } catch {
            throw invalid
        }
        guard
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView))
        else { throw invalid }
        return RequestPayload(fields: fields)
    }

    /// Whether any key holds an explicit `null` (the production server rejects those, CONTRACT.md D6).
    var containsNull: Bool {
        fields.values.contains(.null)
    }

    /// Whether the key is present with any value.
    func has(_ key: String) -> Bool {
        fields[key] != nil
    }

    /// The string under `key`; nil when absent; throws `invalid` for any other type.
    func string(_ key: String, invalid: APIError = .invalidPayload) throws(APIError) -> String? {
        switch fields[key] {
        case nil: return nil
        case .string(let value): return value
        default: throw invalid
        }
    }

    /// The number under `key`; nil when absent; throws `invalid` for any other type.
    func number(_ key: String, invalid: APIError = .invalidPayload) throws(APIError) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .number(let value): return value
        default: throw invalid
        }
    }
}
