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
        let timeZone = environment.timeZone
        // A new measurement needs the latest entries only (whether it is the newest); one logged
        // before others is recorded on the whole history.
        return try await store.updateRecent { state in
            guard let profile = state.profile else { throw AccountError.profileNotLoaded }
            let current = state.recordHeight(centimetres, measuredAt: measuredAt, source: .manual, notes: notes)
            if let entry = state.history.last {
                let shown = Height.format(centimetres, unitSystem: profile.preferredUnitSystem)
                state.remember(
                    .heightLogged(
                        entryId: entry.id, previousHeight: profile.heightCm,
                        previousMeasuredAt: profile.physical.heightMeasuredAt,
                        description:
                            "the height \(shown) logged on \(CalendarDate(containing: measuredAt, in: timeZone))"))
            }
            return current
        }
    }

    /// Removes the height entry named `id` (its server id, or its local one while pending); offline the
    /// deletion waits in the outbox like any change. Returns the entry removed.
    @discardableResult
    public func deleteHeight(id: String) async throws -> ProgressEntry {
        let timeZone = environment.timeZone
        return try await store.update { state in
            guard let entry = state.heightEntry(named: id) else { throw CorrectionError.noSuchEntry(id) }
            let wasLatest = state.heightHistory.first?.id == entry.id
            try state.removeHeightEntry(entry)
            state.remember(
                .entryRemoved(
                    entry, wasLatest: wasLatest, description: "the removal of \(state.describe(entry, timeZone))"))
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
        let timeZone = environment.timeZone
        return try await store.update { state in
            guard let entry = state.heightEntry(named: id) else { throw CorrectionError.noSuchEntry(id) }
            let wasLatest = state.heightHistory.first?.id == entry.id
            let corrected = try state.correctHeightEntry(entry, to: centimetres)
            state.remember(
                .entryCorrected(
                    before: entry, afterId: corrected.id, wasLatest: wasLatest,
                    description: "the correction of \(state.describe(entry, timeZone))"))
            return (entry, corrected)
        }
    }

    /// Undoes the last saved change (walking back through the recent ones on each call); returns it, or
    /// `nil` when there is nothing left to undo.
    @discardableResult
    public func undo() async throws -> UndoStep? {
        let now = environment.now()
        return try await store.update { try $0.undoLast(now: now) }
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
