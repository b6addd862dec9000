#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Use cases on height: log a measurement, read the history.
extension Account {
    /// Logs a height: a history entry and one `POST /progress`; it becomes the current height (one
    /// `PATCH`) when it is the newest measurement.
    ///
    /// - Parameter date: a past measurement, logged at 12:00 local time on that day.
    /// - Returns: whether it became the current height.
    @discardableResult
    public func logHeight(_ centimetres: Double, on date: CalendarDate? = nil, notes: String? = nil) async throws
        -> Bool
    {
        guard Height.allowedRange.contains(centimetres) else {
            throw ValidationError.outOfRange(.height, rule: "must be between 50 and 300 cm")
        }
        let notes = try notes.map { text throws(ValidationError) in try ProfileRules.notes(text) }
        let now = environment.now()
        let measuredAt = date.map { $0.instant(atHour: 12, in: environment.timeZone) } ?? now
        if let date, date > CalendarDate(containing: now, in: environment.timeZone) {
            throw ValidationError.outOfRange(.date, rule: "cannot be in the future")
        }
        return try await store.update { state in
            guard state.profile != nil else { throw AccountError.profileNotLoaded }
            return state.recordHeight(centimetres, measuredAt: measuredAt, source: .manual, notes: notes)
        }
    }

    /// Removes the height entry named `id` (its server id, or its local one while pending); offline the
    /// deletion waits in the outbox like any change. Returns the entry removed.
    @discardableResult
    public func deleteHeight(id: String) async throws -> ProgressEntry {
        try await store.update { state in
            guard let entry = state.heightEntry(named: id) else { throw CorrectionError.noSuchEntry(id) }
            try state.removeHeightEntry(entry)
            return entry
        }
    }

    /// Replaces the value of the height entry named `id`, keeping when it was logged; returns the entry
    /// before and after.
    @discardableResult
    public func correctHeight(id: String, centimetres: Double) async throws -> (
        before: ProgressEntry, after: ProgressEntry
    ) {
        guard Height.allowedRange.contains(centimetres) else {
            throw ValidationError.outOfRange(.height, rule: "must be between 50 and 300 cm")
        }
        return try await store.update { state in
            guard let entry = state.heightEntry(named: id) else { throw CorrectionError.noSuchEntry(id) }
            return (entry, try state.correctHeightEntry(entry, to: centimetres))
        }
    }

    /// The height history, newest first; with `refresh`, new server entries are fetched first.
    public func heightHistory(refresh: Bool, since: CalendarDate? = nil) async throws -> [ProgressEntry] {
        if refresh { try await engine.refreshHistory(full: false) }
        let entries = try await store.load().heightHistory
        guard let since else { return entries }
        let start = since.instant(atHour: 0, in: environment.timeZone)
        return entries.filter { $0.loggedAt >= start }
    }
}
