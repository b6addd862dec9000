/// Turns a stored profile into the JSON each response shape uses.
struct ProfileRenderer: Sendable {
    /// Which answer is being written, since production shapes differ per operation (CONTRACT.md D1, D2, D5).
    enum Operation: Sendable {
        case read
        case write
        case physical
    }

    let shape: DevServerConfiguration.ResponseShape

    /// The `data` payload for the operation.
    func render(_ profile: ProfileRecord, user: UserRecord, for operation: Operation) -> JSONValue {
        switch shape {
        case .spec:
            return flat(profile, user: user)
        case .real:
            switch operation {
            case .read:
                var nested = full(profile, user: user)
                nested["user_id"] = nil
                return .object(["id": .string(user.id), "email": .string(user.email), "profile": .object(nested)])
            case .write:
                return .object(["profile": .object(full(profile, user: user))])
            case .physical:
                var fields = full(profile, user: user)
                for key in ["user_id", "bio", "created_at", "updated_at"] { fields[key] = nil }
                return .object(["profile": .object(fields)])
            }
        }
    }

    /// Production's profile object: RFC 3339 date of birth, physical fields, nulls written out.
    func full(_ profile: ProfileRecord, user: UserRecord) -> [String: JSONValue] {
        [
            "id": .string(profile.id),
            "user_id": .string(profile.userID),
            "name": .string(profile.name),
            "bio": .optional(profile.bio),
            "preferred_unit_system": .string(profile.preferredUnitSystem),
            "language_code": .optional(profile.languageCode),
            "date_of_birth": .string(user.dateOfBirth.midnightTimestamp),
            "biological_sex": .optional(profile.biologicalSex),
            "height_cm": .optional(profile.heightCm),
            "created_at": .string(profile.createdAt.rfc3339),
            "updated_at": .string(profile.updatedAt.rfc3339),
        ]
    }

    /// The written `UserProfileResponseData`: flat, `YYYY-MM-DD`, no physical fields, absent optionals left out.
    func flat(_ profile: ProfileRecord, user: UserRecord) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(profile.id),
            "user_id": .string(profile.userID),
            "name": .string(profile.name),
            "preferred_unit_system": .string(profile.preferredUnitSystem),
            "date_of_birth": .string(user.dateOfBirth.description),
            "created_at": .string(profile.createdAt.rfc3339),
            "updated_at": .string(profile.updatedAt.rfc3339),
        ]
        if let bio = profile.bio { fields["bio"] = .string(bio) }
        if let language = profile.languageCode { fields["language_code"] = .string(language) }
        return .object(fields)
    }
}
