import Foundation

/// A validated `POST`/`PUT /users/me` body.
struct MetadataInput: Sendable, Equatable {
    static let maximumNameLength = 100
    static let maximumBioLength = 500
    static let unitSystems: Set<String> = ["metric", "imperial"]

    let name: String
    let preferredUnitSystem: String
    /// nil when the key was absent (keep the stored value); "" clears it.
    let bio: String?
    /// nil when the key was absent (keep the stored value); "" clears it.
    let languageCode: String?

    /// Validates the body: both required fields, enum values, lengths, and no explicit `null`.
    init(payload: RequestPayload) throws(APIError) {
        guard !payload.containsNull else { throw .invalidPayload }
        let name = (try payload.string("name"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !name.isEmpty else { throw APIError(.badRequest, "Name is required") }
        guard name.count <= Self.maximumNameLength else {
            throw APIError(.badRequest, "Name must be at most \(Self.maximumNameLength) characters")
        }
        let unit = try payload.string("preferred_unit_system") ?? ""
        guard !unit.isEmpty else { throw APIError(.badRequest, "Preferred unit system is required") }
        guard Self.unitSystems.contains(unit) else {
            throw APIError(.badRequest, "Preferred unit system must be 'metric' or 'imperial'")
        }
        let bio = try payload.string("bio")
        if let bio, bio.count > Self.maximumBioLength {
            throw APIError(.badRequest, "Bio must be at most \(Self.maximumBioLength) characters")
        }
        let language = try payload.string("language_code")
        if let language, !language.isEmpty, !Self.isLanguageCode(language) {
            throw APIError(.badRequest, "Invalid language code")
        }
        self.name = name
        self.preferredUnitSystem = unit
        self.bio = bio
        self.languageCode = language
    }

    /// 2–3 ASCII letters, optionally `-` and a region of 2 letters or 3 digits (`en`, `pt-BR`, `es-419`).
    static func isLanguageCode(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return false }
        let language = parts[0]
        guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        guard parts.count == 2 else { return true }
        let region = parts[1]
        return (region.count == 2 && region.allSatisfy { $0.isASCII && $0.isLetter })
            || (region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber })
    }
}
