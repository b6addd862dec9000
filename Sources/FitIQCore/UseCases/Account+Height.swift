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

    /// The height history, newest first; with `refresh`, new server entries are fetched first.
    public func heightHistory(refresh: Bool, since: CalendarDate? = nil) async throws -> [ProgressEntry] {
        if refresh { try await engine.refreshHistory(full: false) }
        let entries = try await store.load().heightHistory
        guard let since else { return entries }
        let start = since.instant(atHour: 0, in: environment.timeZone)
        return entries.filter { $0.loggedAt >= start }
    }
}
