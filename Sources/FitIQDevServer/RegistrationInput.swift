import Foundation

/// A validated `POST /auth/register` body.
struct RegistrationInput: Sendable, Equatable {
    /// Youngest age allowed to sign up (COPPA).
    static let minimumAge = 13
    /// Shortest password accepted.
    static let minimumPasswordLength = 8

    let email: String
    let password: String
    let name: String
    let dateOfBirth: CalendarDate

    /// Validates the body against the registration rules, in the order the production server reports them.
    init(payload: RequestPayload, today: CalendarDate) throws(APIError) {
        guard !payload.containsNull else { throw .invalidPayload }
        let email = (try payload.string("email"))?.trimmingCharacters(in: .whitespaces) ?? ""
        let password = try payload.string("password") ?? ""
        let name = (try payload.string("name"))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let dateText = (try payload.string("date_of_birth")) ?? ""
        guard !email.isEmpty else { throw APIError(.badRequest, "Email is required") }
        guard Self.looksLikeEmail(email) else { throw APIError(.badRequest, "Invalid email format") }
        guard !password.isEmpty else { throw APIError(.badRequest, "Password is required") }
        guard password.count >= Self.minimumPasswordLength else {
            throw APIError(.badRequest, "Password must be at least \(Self.minimumPasswordLength) characters long")
        }
        guard !name.isEmpty else { throw APIError(.badRequest, "Name is required") }
        guard name.count <= MetadataInput.maximumNameLength else {
            throw APIError(.badRequest, "Name must be at most \(MetadataInput.maximumNameLength) characters")
        }
        guard !dateText.isEmpty else { throw APIError(.badRequest, "Date of birth is required") }
        guard let dateOfBirth = Self.parseDateOfBirth(dateText) else {
            throw APIError(.badRequest, "Invalid date of birth format, expected YYYY-MM-DD")
        }
        guard dateOfBirth <= today else { throw APIError(.badRequest, "Date of birth cannot be in the future") }
        let age = dateOfBirth.age(on: today)
        guard age >= Self.minimumAge else {
            throw APIError(
                .badRequest, "User must be at least \(Self.minimumAge) years old (COPPA compliance). Age: \(age) years")
        }
        self.email = email
        self.password = password
        self.name = name
        self.dateOfBirth = dateOfBirth
    }

    /// `YYYY-MM-DD`, or an RFC 3339 timestamp whose date part is taken as written (no time-zone shift).
    static func parseDateOfBirth(_ text: String) -> CalendarDate? {
        if text.utf8.count == 10 { return CalendarDate(iso: text) }
        guard Timestamp(rfc3339: text) != nil else { return nil }
        return CalendarDate(iso: text.prefix(10))
    }

    /// A light shape check: one `@` with text on both sides, a dot in the domain, no spaces.
    static func looksLikeEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        guard !text.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }
}
