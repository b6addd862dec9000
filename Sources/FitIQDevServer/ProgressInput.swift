/// A validated `POST /progress` body.
struct ProgressInput: Sendable, Equatable {
    static let maximumNotesLength = 500
    static let types: Set<String> = [
        "weight", "height", "body_fat_percentage", "bmi", "steps", "calories_out", "distance_km", "active_minutes",
        "sleep_hours", "water_liters", "resting_heart_rate", "mood_score", "calories_in", "protein_g", "carbs_g",
        "fat_g",
    ]

    let type: String
    let quantity: Double
    /// nil when the body left it out (the server uses the current time).
    let loggedAt: Timestamp?
    let notes: String?

    /// Validates type, quantity ≥ 0, an RFC 3339 `logged_at` and notes of at most 500 characters.
    init(payload: RequestPayload) throws(APIError) {
        guard !payload.containsNull else { throw .invalidPayload }
        guard let type = try payload.string("type"), !type.isEmpty else {
            throw APIError(.badRequest, "Type is required")
        }
        guard Self.types.contains(type) else { throw APIError(.badRequest, "Invalid progress type: \(type)") }
        guard let quantity = try payload.number("quantity") else { throw APIError(.badRequest, "Quantity is required") }
        guard quantity >= 0 else { throw APIError(.badRequest, "Quantity must be zero or greater") }
        var loggedAt: Timestamp?
        if let text = try payload.string("logged_at") {
            guard let parsed = Timestamp(rfc3339: text) else {
                throw APIError(.badRequest, "logged_at must be an RFC 3339 timestamp such as 2024-01-15T08:00:00Z")
            }
            loggedAt = parsed
        }
        let notes = try payload.string("notes")
        if let notes, notes.count > Self.maximumNotesLength {
            throw APIError(.badRequest, "Notes must be at most \(Self.maximumNotesLength) characters")
        }
        self.type = type
        self.quantity = quantity
        self.loggedAt = loggedAt
        self.notes = notes
    }
}
