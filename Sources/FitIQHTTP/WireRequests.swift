import FitIQCore
import Foundation

/// Request bodies as the contract wants them: snake_case keys, absent fields omitted, never `null`.
enum WireRequests {
    static func register(_ registration: Registration) -> Data {
        json([
            "email": registration.email, "password": registration.password, "name": registration.name,
            "date_of_birth": registration.dateOfBirth.description,
        ])
    }

    static func login(email: String, password: String) -> Data {
        json(["email": email, "password": password])
    }

    static func refresh(refreshToken: String) -> Data {
        json(["refresh_token": refreshToken])
    }

    /// `POST`/`PUT /users/me`: always `name` and `preferred_unit_system`; bio and language when known
    /// (`""` clears them).
    static func profile(_ metadata: ProfileMetadata) -> Data {
        var body: [String: Any] = [
            "name": metadata.name, "preferred_unit_system": metadata.preferredUnitSystem.rawValue,
        ]
        if let bio = metadata.bio { body["bio"] = bio }
        if let language = metadata.languageCode { body["language_code"] = language }
        return json(body)
    }

    /// `PATCH /users/me/physical`: only `height_cm` and/or `biological_sex`, never `date_of_birth`.
    static func physical(_ patch: PhysicalPatch) -> Data {
        var body: [String: Any] = [:]
        if let height = patch.heightCm { body["height_cm"] = (height * 100).rounded() / 100 }
        if let sex = patch.biologicalSex { body["biological_sex"] = sex.rawValue }
        return json(body)
    }

    static func progress(_ entry: NewProgressEntry) -> Data {
        var body: [String: Any] = [
            "type": entry.type, "quantity": (entry.quantity * 1000).rounded() / 1000,
            "logged_at": WireDates.format(entry.loggedAt),
        ]
        if let notes = entry.notes, !notes.isEmpty { body["notes"] = notes }
        return json(body)
    }

    /// The query items of `GET /progress`.
    static func progressQuery(_ query: ProgressQuery) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let type = query.type { items.append(URLQueryItem(name: "type", value: type)) }
        if let from = query.from { items.append(URLQueryItem(name: "from", value: from.description)) }
        if let to = query.to { items.append(URLQueryItem(name: "to", value: to.description)) }
        items.append(URLQueryItem(name: "limit", value: String(min(100, max(1, query.limit)))))
        items.append(URLQueryItem(name: "offset", value: String(max(0, query.offset))))
        return items
    }

    private static func json(_ object: [String: Any]) -> Data {
        // Only strings, numbers and nested dictionaries of them are passed in, which always serialize.
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}
