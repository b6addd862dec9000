import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Tolerant readers of the backend's answers: the production shapes and the written spec's
/// (CONTRACT.md §2, D1–D5), unknown fields ignored. Every answer is decoded into the Codable types
/// of `WireTypes.swift`.
enum WireResponses {
    /// Why an answer could not be read.
    struct Unreadable: Error, Equatable {
        let reason: String
    }

    static func tokens(_ body: Data) throws(Unreadable) -> TokenPair {
        let tokens = try decode(WireTokens.self, from: body)
        guard let access = tokens.accessToken, !access.isEmpty, let refresh = tokens.refreshToken, !refresh.isEmpty
        else { throw Unreadable(reason: "it has no access_token and refresh_token") }
        // A token goes into a header of every request (RFC 6750's b64token); one that cannot (a garbled
        // answer) would make every later request fail before it is sent, with no way to recover.
        guard access.utf8.allSatisfy(isTokenByte), refresh.utf8.allSatisfy(isTokenByte) else {
            throw Unreadable(reason: "its tokens hold characters a token cannot have")
        }
        return TokenPair(accessToken: access, refreshToken: refresh)
    }

    /// A byte of RFC 6750's `b64token`: letters, digits, `-._~+/` and `=`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~+/=".utf8.contains(byte)
        }
    }

    static func registration(_ body: Data, email: String) throws(Unreadable) -> RegistrationResult {
        let pair = try tokens(body)
        let answer = try decode(WireRegistration.self, from: body)
        return RegistrationResult(
            userId: answer.userId?.text ?? answer.id?.text ?? "", email: answer.email ?? email, tokens: pair)
    }

    /// A profile from `GET /users/me` (nested under `profile` with the user's `id` and `email` beside it),
    /// from a write (`{"profile": …}`), or flat as the spec writes it.
    static func profile(_ body: Data) throws(Unreadable) -> RemoteProfile {
        let answer = try decode(WireProfileAnswer.self, from: body)
        let fields = answer.profile
        guard let name = fields.name else { throw Unreadable(reason: "the profile has no name") }
        return RemoteProfile(
            userId: answer.isNested ? answer.userId ?? fields.userId : fields.userId,
            profileId: fields.id?.text,
            email: answer.email ?? fields.email,
            metadata: ProfileMetadata(
                name: name, bio: fields.bio, preferredUnitSystem: fields.unitSystem ?? .metric,
                languageCode: fields.languageCode),
            dateOfBirth: fields.dateOfBirth.flatMap(CalendarDate.init(parsing:)),
            heightCm: fields.heightCm?.value,
            biologicalSex: fields.biologicalSex.flatMap { BiologicalSex(rawValue: $0.lowercased()) },
            createdAt: fields.createdAt.flatMap(RFC3339.parse),
            updatedAt: fields.updatedAt.flatMap(RFC3339.parse))
    }

    static func progressEntry(_ body: Data) throws(Unreadable) -> RemoteProgressEntry {
        try decode(Envelope<WireProgressEntry>.self, from: body).payload.entry()
    }

    static func progressPage(_ body: Data, query: ProgressQuery) throws(Unreadable) -> ProgressPage {
        let page = try decode(Envelope<WireProgressPage>.self, from: body).payload
        guard let list = page.entries else { throw Unreadable(reason: "it has no entries list") }
        var entries: [RemoteProgressEntry] = []
        for item in list { entries.append(try item.entry()) }
        return ProgressPage(
            entries: entries, total: page.total?.integer ?? (query.offset + entries.count),
            limit: page.limit?.integer ?? query.limit, offset: page.offset?.integer ?? query.offset)
    }

    /// The message of an error answer: `error.message`, a top-level `message`, or the plain text.
    static func errorMessage(_ body: Data, status: Int, contentType: String?) -> String {
        if let answer = try? JSONDecoder().decode(WireErrorAnswer.self, from: body), let message = answer.message {
            return clean(message)
        }
        if isHTML(body, contentType: contentType) { return "HTTP \(status) (an HTML page, probably from a proxy)" }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        let cleaned = clean(text)
        return cleaned.isEmpty ? "HTTP \(status)" : cleaned
    }

    /// `type` from `body`, or why it cannot be read, in words.
    private static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(Unreadable) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            throw Unreadable(reason: reason(error, body: body))
        } catch let error as Unreadable {
            throw error
        } catch {
            throw Unreadable(reason: "it is not JSON (\(describe(body)))")
        }
    }

    /// A decoding failure as a short phrase naming the field: what the user reads after "could not be read:".
    private static func reason(_ error: DecodingError, body: Data) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the answer" : keys.joined(separator: ".")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not JSON (\(describe(body)))"
        case .dataCorrupted(let context):
            return "\(path(context)) is not valid: \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)) has no \(key.stringValue)"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "it is not a JSON object"
        case .typeMismatch(let type, let context):
            return "\(path(context)) is not \(type == String.self ? "text" : "a \(type)")"
        case .valueNotFound(_, let context):
            return "\(path(context)) is null"
        @unknown default:
            return "it does not have the expected shape"
        }
    }

    private static func clean(_ text: String) -> String {
        let sanitized = TextSanitizer.sanitize(text).trimmingSpaces()
        return sanitized.count > 300 ? String(sanitized.prefix(300)) + "…" : sanitized
    }

    static func isHTML(_ body: Data, contentType: String?) -> Bool {
        if contentType?.lowercased().contains("html") == true { return true }
        let start = String(decoding: body.prefix(64), as: UTF8.self).lowercased()
        return start.contains("<!doctype html") || start.contains("<html")
    }

    private static func describe(_ body: Data) -> String {
        if body.isEmpty { return "the body is empty" }
        if isHTML(body, contentType: nil) { return "an HTML page, probably from a proxy" }
        return "\(body.count) bytes starting \"\(clean(String(decoding: body.prefix(40), as: UTF8.self)))\""
    }
}
