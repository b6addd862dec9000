import GRDB

extension DevStore {
    /// The profile of this account, if it has one.
    func profile(userID: String) async throws -> ProfileRecord? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM profiles WHERE user_id = ?", arguments: [userID])
                .map(ProfileRecord.init(row:))
        }
    }

    /// Stores a new profile; false when the account has one already.
    func insertProfile(_ profile: ProfileRecord) async throws -> Bool {
        try await queue.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM profiles WHERE user_id = ?", arguments: [profile.userID])
                == true
            {
                return false
            }
            try Self.insert(profile, in: db)
            return true
        }
    }

    /// Writes every field of an existing profile.
    func updateProfile(_ profile: ProfileRecord) async throws {
        try await queue.write { db in
            try db.execute(
                sql: """
                    UPDATE profiles SET name = ?, bio = ?, preferred_unit_system = ?, language_code = ?,
                    biological_sex = ?, height_cm = ?, updated_at = ? WHERE id = ?
                    """,
                arguments: [
                    profile.name, profile.bio, profile.preferredUnitSystem, profile.languageCode,
                    profile.biologicalSex, profile.heightCm, profile.updatedAt.milliseconds, profile.id,
                ]
            )
        }
    }

    static func insert(_ profile: ProfileRecord, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO profiles (id, user_id, name, bio, preferred_unit_system, language_code,
                biological_sex, height_cm, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                profile.id, profile.userID, profile.name, profile.bio, profile.preferredUnitSystem,
                profile.languageCode, profile.biologicalSex, profile.heightCm, profile.createdAt.milliseconds,
                profile.updatedAt.milliseconds,
            ]
        )
    }
}
