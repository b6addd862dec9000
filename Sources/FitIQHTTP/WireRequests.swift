import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Request bodies as the contract wants them: snake_case keys, absent fields omitted, never `null`
/// (the Codable request types of `WireTypes.swift`, keys sorted).
enum WireRequests {
    static func register(_ registration: Registration) -> Data {
        json(
            WireRegistrationRequest(
                email: registration.email, password: registration.password, name: registration.name,
                dateOfBirth: registration.dateOfBirth.description))
    }

    static func login(email: String, password: String) -> Data {
        json(WireLoginRequest(email: email, password: password))
    }

    static func refresh(refreshToken: String) -> Data {
        json(WireRefreshRequest(refreshToken: refreshToken))
    }

    /// `POST`/`PUT /users/me`: always `name` and `preferred_unit_system`; bio and language when known
    /// (`""` clears them).
    static func profile(_ metadata: ProfileMetadata) -> Data {
        json(
            WireProfileRequest(
                name: metadata.name, preferredUnitSystem: metadata.preferredUnitSystem.rawValue, bio: metadata.bio,
                languageCode: metadata.languageCode))
    }

    /// `PATCH /users/me/physical`: only `height_cm` and/or `biological_sex`, never `date_of_birth`.
    static func physical(_ patch: PhysicalPatch) -> Data {
        json(
            WirePhysicalRequest(
                heightCm: patch.heightCm.map { ($0 * 100).rounded() / 100 },
                biologicalSex: patch.biologicalSex?.rawValue))
    }

    static func progress(_ entry: NewProgressEntry) -> Data {
        json(
            WireProgressRequest(
                type: entry.type, quantity: (entry.quantity * 1000).rounded() / 1000,
                loggedAt: RFC3339.format(entry.loggedAt), notes: entry.notes?.isEmpty == false ? entry.notes : nil))
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

    private static func json(_ body: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings and numbers are encoded, which always succeeds.
        return (try? encoder.encode(body)) ?? Data()
    }
}
