import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The backend's JSON as Codable types. Answers come in two shapes (CONTRACT.md §2, D1–D5): the
// production server's (`{"data": …}`, the profile nested under `profile`) and the written spec's;
// each type below accepts both. An optional field of the wrong type reads as absent, as a missing
// one does: only what the client cannot do without makes an answer unreadable.

/// `{"data": T}`, or a bare `T` where an answer has no envelope.
struct Envelope<Payload: Decodable>: Decodable {
    let payload: Payload

    private enum Keys: String, CodingKey { case data }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        payload =
            container.contains(.data) ? try container.decode(Payload.self, forKey: .data) : try Payload(from: decoder)
    }
}

/// Text that may arrive as a JSON string or number (ids).
struct WireText: Decodable, Equatable {
    let text: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self.text = text
        } else if let number = try? container.decode(Int64.self) {
            text = String(number)
        } else {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: decoder.codingPath, debugDescription: "neither text nor a number"))
        }
    }
}

/// A finite number that may arrive as a JSON number or as text holding one (never a boolean, and never
/// the text `nan` or `inf`: no height or quantity is one).
struct WireNumber: Decodable, Equatable {
    let value: Double

    var integer: Int? { value.isFinite && abs(value) < 1e15 ? Int(value) : nil }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // A number first: it is what every answer holds, and a failed try costs an error. The JSON
        // decoder gives no `Double` for `true` or `false`, so a boolean fails both tries.
        let number = (try? container.decode(Double.self)) ?? (try? container.decode(String.self)).flatMap(Double.init)
        guard let number, number.isFinite else {
            throw DecodingError.typeMismatch(
                Double.self, .init(codingPath: decoder.codingPath, debugDescription: "not a finite number"))
        }
        value = number
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `nil` when it is absent, `null` or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}

/// `POST /auth/login`, `/auth/refresh` and `/auth/register`: the token pair.
struct WireTokens: Decodable {
    let accessToken: String?
    let refreshToken: String?

    private enum Keys: String, CodingKey {
        case accessToken = "access_token", refreshToken = "refresh_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try Self.fields(decoder)
        accessToken = container.lenient(String.self, .accessToken)
        refreshToken = container.lenient(String.self, .refreshToken)
    }

    private static func fields(_ decoder: any Decoder) throws -> KeyedDecodingContainer<Keys> {
        let envelope = try decoder.container(keyedBy: DataKey.self)
        return envelope.contains(.data)
            ? try envelope.nestedContainer(keyedBy: Keys.self, forKey: .data)
            : try decoder.container(keyedBy: Keys.self)
    }
}

/// The key of the production envelope.
enum DataKey: String, CodingKey { case data }

/// `POST /auth/register`: who was registered (the tokens are read by ``WireTokens``).
struct WireRegistration: Decodable {
    let userId: WireText?
    let id: WireText?
    let email: String?

    private enum Keys: String, CodingKey {
        case userId = "user_id", id, email
    }

    init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: DataKey.self)
        let container =
            envelope.contains(.data)
            ? try envelope.nestedContainer(keyedBy: Keys.self, forKey: .data)
            : try decoder.container(keyedBy: Keys.self)
        userId = container.lenient(WireText.self, .userId)
        id = container.lenient(WireText.self, .id)
        email = container.lenient(String.self, .email)
    }
}

/// The fields of a profile, wherever they stand.
struct WireProfile: Decodable {
    let id: WireText?
    let userId: String?
    let email: String?
    let name: String?
    let bio: String?
    let unitSystem: UnitSystem?
    let languageCode: String?
    let dateOfBirth: String?
    let heightCm: WireNumber?
    let biologicalSex: String?
    let createdAt: String?
    let updatedAt: String?

    private enum Keys: String, CodingKey {
        case id, userId = "user_id", email, name, bio, unitSystem = "preferred_unit_system"
        case languageCode = "language_code", dateOfBirth = "date_of_birth", heightCm = "height_cm"
        case biologicalSex = "biological_sex", createdAt = "created_at", updatedAt = "updated_at"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = container.lenient(WireText.self, .id)
        userId = container.lenient(WireText.self, .userId)?.text
        email = container.lenient(String.self, .email)
        name = container.lenient(String.self, .name)
        bio = container.lenient(String.self, .bio)
        unitSystem = container.lenient(String.self, .unitSystem).flatMap { UnitSystem(rawValue: $0.lowercased()) }
        languageCode = container.lenient(String.self, .languageCode)
        dateOfBirth = container.lenient(String.self, .dateOfBirth)
        heightCm = container.lenient(WireNumber.self, .heightCm)
        biologicalSex = container.lenient(String.self, .biologicalSex)
        createdAt = container.lenient(String.self, .createdAt)
        updatedAt = container.lenient(String.self, .updatedAt)
    }
}

/// A profile answer: `GET /users/me` in production (`{"id", "email", "profile": {…}}`), a write's
/// answer (`{"profile": {…}}`), or the spec's flat profile; with or without the envelope.
struct WireProfileAnswer: Decodable {
    let profile: WireProfile
    /// Whether the profile was nested under `profile` (then `userId` and `email` are the user's).
    let isNested: Bool
    let userId: String?
    let email: String?

    private enum Keys: String, CodingKey { case id, email, profile }

    init(from decoder: any Decoder) throws {
        let payload = try Envelope<Nested>(from: decoder).payload
        profile = payload.profile
        isNested = payload.isNested
        userId = payload.userId
        email = payload.email
    }

    private struct Nested: Decodable {
        let profile: WireProfile
        let isNested: Bool
        let userId: String?
        let email: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            if container.contains(.profile), let nested = try? container.decode(WireProfile.self, forKey: .profile) {
                profile = nested
                isNested = true
                userId = container.lenient(WireText.self, .id)?.text
                email = container.lenient(String.self, .email)
            } else {
                profile = try WireProfile(from: decoder)
                isNested = false
                userId = nil
                email = nil
            }
        }
    }
}

/// One progress entry: `date` in production, `logged_at` in the spec.
struct WireProgressEntry: Decodable {
    let id: WireText?
    let type: String?
    let quantity: WireNumber?
    let date: String?
    let notes: String?

    private enum Keys: String, CodingKey { case id, type, quantity, date, loggedAt = "logged_at", notes }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = container.lenient(WireText.self, .id)
        type = container.lenient(String.self, .type)
        quantity = container.lenient(WireNumber.self, .quantity)
        date = container.lenient(String.self, .date) ?? container.lenient(String.self, .loggedAt)
        notes = container.lenient(String.self, .notes)
    }

    func entry() throws(WireResponses.Unreadable) -> RemoteProgressEntry {
        guard let id, let quantity, let loggedAt = date.flatMap(RFC3339.parse) else {
            throw WireResponses.Unreadable(reason: "a progress entry lacks its id, quantity or date")
        }
        return RemoteProgressEntry(
            id: id.text, type: type ?? "", quantity: quantity.value, loggedAt: loggedAt, notes: notes)
    }
}

/// A page of progress entries: `{"entries": […], "total", "limit", "offset"}`, or a bare list.
struct WireProgressPage: Decodable {
    let entries: [WireProgressEntry]?
    let total: WireNumber?
    let limit: WireNumber?
    let offset: WireNumber?

    private enum Keys: String, CodingKey { case entries, total, limit, offset }

    init(from decoder: any Decoder) throws {
        if let list = try? [WireProgressEntry](from: decoder) {
            entries = list
            total = nil
            limit = nil
            offset = nil
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        entries = try container.decodeIfPresent([WireProgressEntry].self, forKey: .entries)
        total = container.lenient(WireNumber.self, .total)
        limit = container.lenient(WireNumber.self, .limit)
        offset = container.lenient(WireNumber.self, .offset)
    }
}

/// An error answer: `{"error": {"message"}}` in production, or `{"error": "…"}` / `{"message": "…"}`.
struct WireErrorAnswer: Decodable {
    let message: String?

    private enum Keys: String, CodingKey { case error, message }
    private struct Detail: Decodable { let message: String? }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        message =
            container.lenient(Detail.self, .error)?.message ?? container.lenient(String.self, .error)
            ?? container.lenient(String.self, .message)
    }
}

// MARK: - Requests

/// `POST /auth/register`.
struct WireRegistrationRequest: Encodable {
    let email: String
    let password: String
    let name: String
    let dateOfBirth: String

    enum CodingKeys: String, CodingKey { case email, password, name, dateOfBirth = "date_of_birth" }
}

/// `POST /auth/login`.
struct WireLoginRequest: Encodable {
    let email: String
    let password: String
}

/// `POST /auth/refresh`.
struct WireRefreshRequest: Encodable {
    let refreshToken: String

    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST`/`PUT /users/me`: always `name` and `preferred_unit_system`; bio and language when known.
struct WireProfileRequest: Encodable {
    let name: String
    let preferredUnitSystem: String
    let bio: String?
    let languageCode: String?

    enum CodingKeys: String, CodingKey {
        case name, preferredUnitSystem = "preferred_unit_system", bio, languageCode = "language_code"
    }
}

/// `PATCH /users/me/physical`: only `height_cm` and/or `biological_sex`; an absent one is omitted, never `null`.
struct WirePhysicalRequest: Encodable {
    let heightCm: Double?
    let biologicalSex: String?

    enum CodingKeys: String, CodingKey { case heightCm = "height_cm", biologicalSex = "biological_sex" }
}

/// `POST /progress`.
struct WireProgressRequest: Encodable {
    let type: String
    let quantity: Double
    let loggedAt: String
    let notes: String?

    enum CodingKeys: String, CodingKey { case type, quantity, loggedAt = "logged_at", notes }
}
