/// A validated `PATCH /users/me/physical` body.
struct PhysicalInput: Sendable, Equatable {
    static let biologicalSexes: Set<String> = ["male", "female", "other"]
    static let heightRange = 50.0...300.0

    let biologicalSex: String?
    let heightCm: Double?

    /// Validates the body the way production does: no `null`, no `date_of_birth`, and at least one
    /// of `biological_sex` and `height_cm` (CONTRACT.md D6–D8).
    init(payload: RequestPayload) throws(APIError) {
        guard !payload.containsNull, !payload.has("date_of_birth") else { throw .invalidPayload }
        let sex = try payload.string("biological_sex")
        let height = try payload.number("height_cm")
        guard sex != nil || height != nil else { throw .invalidPayload }
        if let sex, !Self.biologicalSexes.contains(sex) {
            throw APIError(.badRequest, "Biological sex must be 'male', 'female' or 'other'")
        }
        if let height, !Self.heightRange.contains(height) {
            throw APIError(.badRequest, "Height must be between 50 and 300 cm")
        }
        self.biologicalSex = sex
        self.heightCm = height
    }
}
