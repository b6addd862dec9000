import FitIQCore
import Foundation

/// Tolerant readers of the backend's answers: the production shapes and the written spec's
/// (CONTRACT.md §2, D1–D5), unknown fields ignored.
enum WireResponses {
    /// Why an answer could not be read.
    struct Unreadable: Error, Equatable {
        let reason: String
    }

    /// The payload: `data` of the envelope, or the whole object when there is no envelope.
    static func payload(_ body: Data) throws(Unreadable) -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body)
        } catch {
            throw Unreadable(reason: "it is not JSON (\(describe(body)))")
        }
        guard let dictionary = object as? [String: Any] else { throw Unreadable(reason: "it is not a JSON object") }
        if let data = dictionary["data"] as? [String: Any] { return data }
        if dictionary["data"] is [Any] { return ["entries": dictionary["data"] ?? []] }
        return dictionary
    }

    static func tokens(_ body: Data) throws(Unreadable) -> TokenPair {
        let data = try payload(body)
        guard let access = data["access_token"] as? String, !access.isEmpty,
            let refresh = data["refresh_token"] as? String, !refresh.isEmpty
        else { throw Unreadable(reason: "it has no access_token and refresh_token") }
        return TokenPair(accessToken: access, refreshToken: refresh)
    }

    static func registration(_ body: Data, email: String) throws(Unreadable) -> RegistrationResult {
        let tokens = try tokens(body)
        let data = try payload(body)
        let userId = (data["user_id"] as? String) ?? (data["id"] as? String) ?? ""
        return RegistrationResult(userId: userId, email: (data["email"] as? String) ?? email, tokens: tokens)
    }

    /// A profile from `GET /users/me` (nested under `profile` with the user's `id` and `email` beside it),
    /// from a write (`{"profile": …}`), or flat as the spec writes it.
    static func profile(_ body: Data) throws(Unreadable) -> RemoteProfile {
        let data = try payload(body)
        let fields = (data["profile"] as? [String: Any]) ?? data
        let nested = data["profile"] is [String: Any]
        guard let name = fields["name"] as? String else { throw Unreadable(reason: "the profile has no name") }
        let units = (fields["preferred_unit_system"] as? String).flatMap { UnitSystem(rawValue: $0.lowercased()) }
        return RemoteProfile(
            userId: nested ? (data["id"] as? String) ?? (fields["user_id"] as? String) : fields["user_id"] as? String,
            profileId: fields["id"] as? String,
            email: (data["email"] as? String) ?? (fields["email"] as? String),
            metadata: ProfileMetadata(
                name: name, bio: fields["bio"] as? String, preferredUnitSystem: units ?? .metric,
                languageCode: fields["language_code"] as? String),
            dateOfBirth: (fields["date_of_birth"] as? String).flatMap(CalendarDate.init(parsing:)),
            heightCm: number(fields["height_cm"]),
            biologicalSex: (fields["biological_sex"] as? String).flatMap { BiologicalSex(rawValue: $0.lowercased()) },
            createdAt: (fields["created_at"] as? String).flatMap(WireDates.parse),
            updatedAt: (fields["updated_at"] as? String).flatMap(WireDates.parse))
    }

    static func progressEntry(_ body: Data) throws(Unreadable) -> RemoteProgressEntry {
        try progressEntry(fields: payload(body))
    }

    static func progressPage(_ body: Data, query: ProgressQuery) throws(Unreadable) -> ProgressPage {
        let data = try payload(body)
        guard let list = data["entries"] as? [Any] else { throw Unreadable(reason: "it has no entries list") }
        var entries: [RemoteProgressEntry] = []
        for item in list {
            guard let fields = item as? [String: Any] else { throw Unreadable(reason: "an entry is not an object") }
            entries.append(try progressEntry(fields: fields))
        }
        let total = (data["total"] as? NSNumber)?.intValue ?? (query.offset + entries.count)
        return ProgressPage(
            entries: entries, total: total, limit: (data["limit"] as? NSNumber)?.intValue ?? query.limit,
            offset: (data["offset"] as? NSNumber)?.intValue ?? query.offset)
    }

    /// The message of an error answer: `error.message`, a top-level `message`, or the plain text.
    static func errorMessage(_ body: Data, status: Int, contentType: String?) -> String {
        if let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            if let error = object["error"] as? [String: Any], let message = error["message"] as? String {
                return clean(message)
            }
            if let message = (object["error"] as? String) ?? (object["message"] as? String) { return clean(message) }
        }
        if isHTML(body, contentType: contentType) { return "HTTP \(status) (an HTML page, probably from a proxy)" }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        let cleaned = clean(text)
        return cleaned.isEmpty ? "HTTP \(status)" : cleaned
    }

    private static func progressEntry(fields: [String: Any]) throws(Unreadable) -> RemoteProgressEntry {
        guard let id = (fields["id"] as? String) ?? (fields["id"] as? NSNumber)?.stringValue,
            let quantity = number(fields["quantity"]),
            let date = ((fields["date"] as? String) ?? (fields["logged_at"] as? String)).flatMap(WireDates.parse)
        else { throw Unreadable(reason: "a progress entry lacks its id, quantity or date") }
        return RemoteProgressEntry(
            id: id, type: (fields["type"] as? String) ?? "", quantity: quantity, loggedAt: date,
            notes: fields["notes"] as? String)
    }

    private static func number(_ value: Any?) -> Double? {
        if let number = value as? NSNumber, !(value is Bool) { return number.doubleValue }
        if let text = value as? String { return Double(text) }
        return nil
    }

    private static func clean(_ text: String) -> String {
        let sanitized = TextSanitizer.sanitize(text).trimmingCharacters(in: .whitespaces)
        return sanitized.count > 300 ? String(sanitized.prefix(300)) + "…" : sanitized
    }

    private static func isHTML(_ body: Data, contentType: String?) -> Bool {
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
