import GRDB

/// An account as stored: identity, password hash and the registration data.
struct UserRecord: Sendable, Equatable {
    let id: String
    let email: String
    let passwordHash: String
    let name: String
    let dateOfBirth: CalendarDate
    let createdAt: Timestamp

    init(id: String, email: String, passwordHash: String, name: String, dateOfBirth: CalendarDate, createdAt: Timestamp)
    {
        self.id = id
        self.email = email
        self.passwordHash = passwordHash
        self.name = name
        self.dateOfBirth = dateOfBirth
        self.createdAt = createdAt
    }

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

    init(
        id: String, userID: String, name: String, bio: String?, preferredUnitSystem: String, languageCode: String?,
        biologicalSex: String?, heightCm: Double?, createdAt: Timestamp, updatedAt: Timestamp
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.bio = bio
        self.preferredUnitSystem = preferredUnitSystem
        self.languageCode = languageCode
        self.biologicalSex = biologicalSex
        self.heightCm = heightCm
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

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

    init(id: String, userID: String, type: String, quantity: Double, loggedAt: Timestamp, notes: String?) {
        self.id = id
        self.userID = userID
        self.type = type
        self.quantity = quantity
        self.loggedAt = loggedAt
        self.notes = notes
    }

    init(row: Row) {
        self.init(
            id: row["id"], userID: row["user_id"], type: row["type"], quantity: row["quantity"],
            loggedAt: Timestamp(milliseconds: row["logged_at"]), notes: row["notes"]
        )
    }
}
