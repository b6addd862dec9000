#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The requests behind each outbox operation, with the contract's 404 rules.
extension SyncEngine {
    /// Performs `operation`; throws ``RemoteError`` for an answer to classify (``outcome(of:)``), and
    /// ``SessionError`` when the account is signed out.
    func perform(_ operation: SyncOperation) async throws -> SyncOutcome {
        switch operation {
        case .updateMetadata(let metadata, _):
            do {
                _ = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updateMetadata(metadata, accessToken: token)
                }
            } catch RemoteError.notFound {
                // No profile yet: create it with these values (201 or 409 both mean it exists), then PUT.
                try await createProfile(metadata)
                _ = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updateMetadata(metadata, accessToken: token)
                }
            }
            return .delivered
        case .updatePhysical(let patch, _):
            do {
                _ = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updatePhysical(patch, accessToken: token)
                }
            } catch RemoteError.notFound(let message) {
                // CONTRACT.md D9: confirm with GET; an existing profile means retry later, never re-create.
                do {
                    _ = try await session.authorized { token throws(RemoteError) in
                        try await self.profiles.fetchProfile(accessToken: token)
                    }
                    return .retry("The server said \"\(message)\" although the profile exists; will retry.")
                } catch RemoteError.notFound {
                    let local = try await store.load()
                    try await createProfile(
                        local.profile?.metadata ?? ProfileMetadata(name: Self.defaultName(for: identity.email)))
                    _ = try await session.authorized { token throws(RemoteError) in
                        try await self.profiles.updatePhysical(patch, accessToken: token)
                    }
                }
            }
            return .delivered
        case .logProgress(_, let entry, let checkServerFirst):
            if checkServerFirst, let existing = try await findOnServer(entry) {
                return .logged(serverId: existing)
            }
            let created = try await session.authorized { token throws(RemoteError) in
                try await self.progress.log(entry, accessToken: token)
            }
            return .logged(serverId: created.id)
        case .deleteProgress(_, let serverId):
            do {
                try await session.authorized { token throws(RemoteError) in
                    try await self.progress.delete(id: serverId, accessToken: token)
                }
            } catch RemoteError.notFound {
                // Already gone (deleted on another device, or an earlier attempt that lost its answer).
            }
            return .delivered
        }
    }

    /// What a failed request means for its change.
    static func outcome(of error: RemoteError) -> SyncOutcome {
        error.isRetryable ? .retry(error.description) : .rejected(error.message)
    }

    /// `GET /users/me`, creating the profile first when the server has none.
    func fetchProfile(creatingWith metadata: ProfileMetadata) async throws -> RemoteProfile {
        do {
            return try await session.authorized { token throws(RemoteError) in
                try await self.profiles.fetchProfile(accessToken: token)
            }
        } catch RemoteError.notFound {
            try await createProfile(metadata)
            return try await session.authorized { token throws(RemoteError) in
                try await self.profiles.fetchProfile(accessToken: token)
            }
        }
    }

    /// `POST /users/me`; a 409 means another client created it first, which is success too.
    func createProfile(_ metadata: ProfileMetadata) async throws {
        do {
            _ = try await session.authorized { token throws(RemoteError) in
                try await self.profiles.createProfile(metadata, accessToken: token)
            }
        } catch RemoteError.conflict {
            return
        }
    }

    /// The server id of an entry matching `entry` (same instant and quantity), after a send whose outcome
    /// was unknown.
    func findOnServer(_ entry: NewProgressEntry) async throws -> String? {
        let day = CalendarDate(containing: entry.loggedAt, in: .utc)
        let candidates = try await fetchAll(
            ProgressQuery(type: entry.type, from: day.adding(days: -1), to: day.adding(days: 1)))
        let wanted = ProgressEntry(
            type: entry.type, quantity: entry.quantity, loggedAt: entry.loggedAt, source: .manual)
        return candidates.first { candidate in
            wanted.isSameMeasurement(
                as: ProgressEntry(
                    type: candidate.type, quantity: candidate.quantity, loggedAt: candidate.loggedAt, source: .server))
        }?.id
    }

    /// Every entry matching `query`, paging by `offset` until `offset ≥ total`.
    func fetchAll(_ query: ProgressQuery) async throws -> [RemoteProgressEntry] {
        var entries: [RemoteProgressEntry] = []
        var query = query
        query.limit = 100
        while true {
            let pageQuery = query
            let page = try await session.authorized { token throws(RemoteError) in
                try await self.progress.list(pageQuery, accessToken: token)
            }
            entries += page.entries
            query.offset += page.entries.count
            if page.entries.isEmpty || query.offset >= page.total { return entries }
        }
    }
}
