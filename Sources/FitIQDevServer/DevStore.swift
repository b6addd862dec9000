import GRDB

/// The server's data, kept in SQLite; every method is one transaction named for its intent.
struct DevStore: Sendable {
    /// What happened to a refresh token presented for rotation.
    enum RotationResult: Sendable, Equatable {
        /// The token was valid; it is now revoked and the new one stored.
        case rotated(UserRecord)
        /// No such token.
        case unknown
        /// The token was used before.
        case revoked
        /// The token is past its lifetime.
        case expired
    }

    let queue: DatabaseQueue

    init(queue: DatabaseQueue) {
        self.queue = queue
    }

    /// The key that makes email addresses unique regardless of case.
    static func emailKey(_ email: String) -> String {
        email.lowercased()
    }

    /// Stores a new account (and its profile, when given); false when the email is taken.
    func createUser(_ user: UserRecord, profile: ProfileRecord?) async throws -> Bool {
        try await queue.write { db in
            let key = Self.emailKey(user.email)
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email_key = ?", arguments: [key]) == true {
                return false
            }
            try db.execute(
                sql: """
                    INSERT INTO users (id, email, email_key, password_hash, name, date_of_birth, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.id, user.email, key, user.passwordHash, user.name, user.dateOfBirth.description,
                    user.createdAt.milliseconds,
                ]
            )
            if let profile { try Self.insert(profile, in: db) }
            return true
        }
    }

    /// The account registered with this email, in any letter case.
    func user(email: String) async throws -> UserRecord? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE email_key = ?", arguments: [Self.emailKey(email)])
                .flatMap(UserRecord.init(row:))
        }
    }

    /// The account with this id.
    func user(id: String) async throws -> UserRecord? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]).flatMap(
                UserRecord.init(row:))
        }
    }

    /// Replaces an account's password hash.
    func updatePasswordHash(userID: String, hash: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, userID])
        }
    }

    /// Erases an account and everything stored for it; false when there was no such account.
    func deleteUser(id: String) async throws -> Bool {
        try await queue.write { db in
            // Foreign keys cascade to profiles, refresh tokens and progress entries.
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Stores a freshly issued refresh token.
    func insertRefreshToken(_ token: String, userID: String, expiresAt: Timestamp) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO refresh_tokens (token, user_id, expires_at) VALUES (?, ?, ?)",
                arguments: [token, userID, expiresAt.milliseconds]
            )
        }
    }

    /// Revokes `old` and stores `new` in one step, so a token can be spent only once.
    func rotateRefreshToken(
        _ old: String, to new: String, now: Timestamp, newExpiresAt: Timestamp
    ) async throws -> RotationResult {
        try await queue.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT user_id, expires_at, revoked_at FROM refresh_tokens WHERE token = ?",
                    arguments: [old])
            else { return .unknown }
            let revokedAt: Int64? = row["revoked_at"]
            if revokedAt != nil { return .revoked }
            let expiresAt: Int64 = row["expires_at"]
            if expiresAt <= now.milliseconds { return .expired }
            let userID: String = row["user_id"]
            guard
                let user = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [userID])
                    .flatMap(UserRecord.init(row:))
            else { return .unknown }
            try db.execute(
                sql: "UPDATE refresh_tokens SET revoked_at = ? WHERE token = ?", arguments: [now.milliseconds, old])
            try db.execute(
                sql: "INSERT INTO refresh_tokens (token, user_id, expires_at) VALUES (?, ?, ?)",
                arguments: [new, userID, newExpiresAt.milliseconds]
            )
            return .rotated(user)
        }
    }
}
