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
            let answer: RemoteProfile
            do {
                answer = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updateMetadata(metadata, accessToken: token)
                }
            } catch RemoteError.notFound {
                // No profile yet: create it with these values (201 or 409 both mean it exists), then PUT.
                try await createProfile(metadata)
                answer = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updateMetadata(metadata, accessToken: token)
                }
            }
            return .saved(updatedAt: answer.updatedAt)
        case .updatePhysical(let patch, _):
            var answer: RemoteProfile?
            do {
                answer = try await session.authorized { token throws(RemoteError) in
                    try await self.profiles.updatePhysical(patch, accessToken: token)
                }
            } catch RemoteError.notFound(let message) {
                // CONTRACT.md D9: confirm with GET; an existing profile means retry later, never re-create.
                do {
                    _ = try await session.authorized { token throws(RemoteError) in
                        try await self.profiles.fetchProfile(accessToken: token)
                    }
                    return .retry(.profileExists(serverSaid: message))
                } catch RemoteError.notFound {
                    let local = try await store.load()
                    try await createProfile(
                        local.profile?.metadata ?? ProfileMetadata(name: Self.defaultName(for: identity.email)))
                    answer = try await session.authorized { token throws(RemoteError) in
                        try await self.profiles.updatePhysical(patch, accessToken: token)
                    }
                }
            }
            return .saved(updatedAt: answer?.updatedAt)
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
        error.isRetryable ? .retry(.remote(error)) : .rejected(error.serverMessage ?? "")
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
            wanted.isSameReading(
                as: ProgressEntry(
                    type: candidate.type, quantity: candidate.quantity, loggedAt: candidate.loggedAt, source: .server))
        }?.id
    }

    /// Every entry matching `query`, paging by `offset`.
    ///
    /// The first page gives the total; the other pages are then read in a window of
    /// ``pagesInFlight`` requests at a time, not one after another. A history that grew meanwhile is
    /// read on, one page at a time, until a page comes back short or empty.
    ///
    /// Reads sharing a `window` have at most its size of requests in flight between them.
    func fetchAll(_ query: ProgressQuery, window: RequestWindow? = nil) async throws -> [RemoteProgressEntry] {
        let window = window ?? RequestWindow(size: Self.pagesInFlight)
        var query = query
        query.limit = Self.pageSize
        let first = try await page(query, window)
        var entries = first.entries
        guard first.entries.count == Self.pageSize, first.total > Self.pageSize else { return entries }
        let offsets = Array(stride(from: Self.pageSize, to: first.total, by: Self.pageSize))
        let queries = offsets.map { offset in
            var pageQuery = query
            pageQuery.offset = offset
            return pageQuery
        }
        let pages = try await withThrowingTaskGroup(of: (Int, ProgressPage).self) { group in
            var pages = [Int: ProgressPage](minimumCapacity: queries.count)
            var next = 0
            while next < min(Self.pagesInFlight, queries.count) {
                let pageQuery = queries[next]
                group.addTask { (pageQuery.offset, try await self.page(pageQuery, window)) }
                next += 1
            }
            while let (offset, read) = try await group.next() {
                pages[offset] = read
                if next < queries.count {
                    let pageQuery = queries[next]
                    group.addTask { (pageQuery.offset, try await self.page(pageQuery, window)) }
                    next += 1
                }
            }
            return pages
        }
        for offset in offsets { entries += pages[offset]?.entries ?? [] }
        // The history grew while it was read: go on from the end, one page at a time.
        let last = offsets[offsets.count - 1]
        var total = pages.values.map(\.total).max() ?? first.total
        query.offset = last + (pages[last]?.entries.count ?? 0)
        var lastCount = pages[last]?.entries.count ?? 0
        while lastCount == Self.pageSize, query.offset < total {
            let more = try await page(query, window)
            entries += more.entries
            query.offset += more.entries.count
            lastCount = more.entries.count
            total = more.total
        }
        return entries
    }

    /// The largest page the contract allows.
    static let pageSize = 100
    /// How many pages of a long history are read at once.
    static let pagesInFlight = 8

    /// One page, read in a place of `window`. A read the server answered with a failure (a 5xx) is
    /// tried again at once, twice at most: a sync reads fifteen metrics, and one page lost among them
    /// would fail them all. No way to the server, no answer in time or an answer broken off is not
    /// tried again here: the sync's own retries wait, and an offline sync must not.
    private func page(_ query: ProgressQuery, _ window: RequestWindow) async throws -> ProgressPage {
        await window.enter()
        var attempt = 0
        while true {
            do {
                let read = try await session.authorized { token throws(RemoteError) in
                    try await self.progress.list(query, accessToken: token)
                }
                await window.leave()
                return read
            } catch let error as RemoteError where attempt < 2 && Self.isWorthReadingAgain(error) {
                attempt += 1
            } catch {
                await window.leave()
                throw error
            }
        }
    }

    /// Whether a read that failed so is worth making again at once: the server is there and said it
    /// failed.
    static func isWorthReadingAgain(_ error: RemoteError) -> Bool {
        if case .unavailable = error { true } else { false }
    }
}

/// At most `size` requests in flight among the reads that share it; the others wait their turn, first
/// come first served.
actor RequestWindow {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(size: Int) {
        free = size
    }

    func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
