import GRDB

/// Opens the server's SQLite database and brings its schema up to date.
enum DevDatabase {
    /// Opens the database the configuration names and runs every pending migration.
    static func open(_ storage: DevServerConfiguration.Storage) throws(DevServerSetupError) -> DatabaseQueue {
        do {
            let queue: DatabaseQueue
            switch storage {
            case .inMemory: queue = try DatabaseQueue()
            case .file(let path): queue = try DatabaseQueue(path: path)
            }
            try migrator.migrate(queue)
            return queue
        } catch {
            throw .database(reason: "\(error)")
        }
    }

    /// The schema history; add migrations at the end, never edit a shipped one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-accounts-profiles-progress") { db in
            try db.execute(
                sql: """
                    CREATE TABLE users (
                        id TEXT PRIMARY KEY NOT NULL,
                        email TEXT NOT NULL,
                        email_key TEXT NOT NULL UNIQUE,
                        password_hash TEXT NOT NULL,
                        name TEXT NOT NULL,
                        date_of_birth TEXT NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE profiles (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        bio TEXT,
                        preferred_unit_system TEXT NOT NULL,
                        language_code TEXT,
                        biological_sex TEXT,
                        height_cm REAL,
                        created_at INTEGER NOT NULL,
                        updated_at INTEGER NOT NULL
                    );
                    CREATE TABLE refresh_tokens (
                        token TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        expires_at INTEGER NOT NULL,
                        revoked_at INTEGER
                    );
                    CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
                    CREATE TABLE progress_entries (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        type TEXT NOT NULL,
                        quantity REAL NOT NULL,
                        logged_at INTEGER NOT NULL,
                        notes TEXT,
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX progress_entries_user_logged ON progress_entries(user_id, logged_at);
                    """
            )
        }
        return migrator
    }
}
