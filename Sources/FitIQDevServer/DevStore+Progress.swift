import GRDB

extension DevStore {
    /// One page of progress entries and the number of entries matching in all.
    struct ProgressPage: Sendable, Equatable {
        let entries: [ProgressRecord]
        let total: Int
    }

    /// Which entries a listing asks for.
    struct ProgressQuery: Sendable, Equatable {
        let userID: String
        let type: String?
        /// Inclusive lower bound of `logged_at`.
        let from: Timestamp
        /// Exclusive upper bound of `logged_at`.
        let until: Timestamp
        let limit: Int
        let offset: Int
    }

    /// Stores progress entries.
    func insertEntries(_ entries: [ProgressRecord], createdAt: Timestamp) async throws {
        try await queue.write { db in
            for entry in entries { try Self.insert(entry, createdAt: createdAt, in: db) }
        }
    }

    /// Newest entries first (then by id) within the query's window, and the total count.
    func entries(_ query: ProgressQuery) async throws -> ProgressPage {
        try await queue.read { db in
            var filter = "user_id = ? AND logged_at >= ? AND logged_at < ?"
            var arguments: StatementArguments = [query.userID, query.from.milliseconds, query.until.milliseconds]
            if let type = query.type {
                filter += " AND type = ?"
                arguments += [type]
            }
            let total =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM progress_entries WHERE \(filter)", arguments: arguments)
                ?? 0
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT * FROM progress_entries WHERE \(filter) ORDER BY logged_at DESC, id ASC LIMIT ? OFFSET ?",
                arguments: arguments + [query.limit, query.offset]
            )
            return ProgressPage(entries: rows.map(ProgressRecord.init(row:)), total: total)
        }
    }

    /// The entry with this id, whoever owns it.
    func entry(id: String) async throws -> ProgressRecord? {
        try await queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM progress_entries WHERE id = ?", arguments: [id])
                .map(ProgressRecord.init(row:))
        }
    }

    /// Removes the entry with this id.
    func deleteEntry(id: String) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM progress_entries WHERE id = ?", arguments: [id])
        }
    }

    static func insert(_ entry: ProgressRecord, createdAt: Timestamp, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO progress_entries (id, user_id, type, quantity, logged_at, notes, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.id, entry.userID, entry.type, entry.quantity, entry.loggedAt.milliseconds, entry.notes,
                createdAt.milliseconds,
            ]
        )
    }
}
