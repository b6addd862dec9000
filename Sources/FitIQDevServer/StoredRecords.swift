import GRDB

/// An account as stored: identity, password hash and the registration data.
struct UserRecord: Sendable, Equatable {
    let id: String
    let email: String
    let passwordHash: String
    let name: String
    let dateOfBirth: CalendarDate
    let createdAt: Timestamp
}

extension UserRecord {
    init?(row: Row) {
        guard let dateOfBirth = CalendarDate(iso: row["date_of_birth"] as String) else { return nil }
        self.init(
            id: row["id"], email: row["email"], passwordHash: row["password_hash"], name: row["name"],
            dateOfBirth: dateOfBirth, createdAt: Timestamp(milliseconds: row["created_at"])
        )
    }
}

/// A profile as stored: metadata, physical attributes and timestamps.
struct ProfileRecord: Sendable, Equatable {
    var id: String
    var userID: String
    var name: String
    var bio: String?
    var preferredUnitSystem: String
    var languageCode: String?
    var biologicalSex: String?
    var heightCm: Double?
    var createdAt: Timestamp
    var updatedAt: Timestamp
}

extension ProfileRecord {
    init(row: Row) {
        self.init(
            id: row["id"], userID: row["user_id"], name: row["name"], bio: row["bio"],
            preferredUnitSystem: row["preferred_unit_system"], languageCode: row["language_code"],
            biologicalSex: row["biological_sex"], heightCm: row["height_cm"],
            createdAt: Timestamp(milliseconds: row["created_at"]), updatedAt: Timestamp(milliseconds: row["updated_at"])
        )
    }
}

/// One progress measurement as stored.
struct ProgressRecord: Sendable, Equatable {
    let id: String
    let userID: String
    let type: String
    let quantity: Double
    let loggedAt: Timestamp
    let notes: String?
}

extension ProgressRecord {
    init(row: Row) {
        self.init(
            id: row["id"], userID: row["user_id"], type: row["type"], quantity: row["quantity"],
            loggedAt: Timestamp(milliseconds: row["logged_at"]), notes: row["notes"]
        )
    }
}
