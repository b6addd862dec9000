#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Use cases on measurements (height, weight, body fat): log one, correct or remove an entry, read
/// the history.
extension Account {
    /// Logs a measurement of `metric` (`value` in its unit): a history entry and one `POST /progress`.
    /// A height becomes the current height (one `PATCH`) when it is the newest measurement. Front ends
    /// and tests ask for it through ``apply(_:sending:)`` (``ChangeRequest/measurement(_:_:day:time:notes:)``).
    ///
    /// - Parameters:
    ///   - date: a past measurement, logged at 12:00 local time on that day (at `time` when given).
    ///   - time: the time of day it was measured, on `date` or today; never after now.
    ///   - notes: at most 500 characters, kept with the entry and sent with it.
    ///   - sending: the caller sends it at once (``deliver()``): the save's write also claims what goes
    ///     out first, so the send needs no write of its own.
    /// - Returns: the entry logged, and whether it became the current height.
    @discardableResult
    func log(
        _ metric: Metric, _ value: Double, on date: CalendarDate? = nil, at time: TimeOfDay? = nil,
        notes: String? = nil, sending: Bool = false
    ) async throws -> (entry: ProgressEntry, isCurrentHeight: Bool) {
        try metric.check(value)
        let notes = try notes.map { text throws(ValidationError) in try ProfileRules.notes(text) }
        let now = environment.now()
        let timeZone = environment.timeZone
        let today = CalendarDate(containing: now, in: timeZone)
        if let date, date > today { throw ValidationError.outOfRange(.date, rule: .notInFuture) }
        // A day alone is logged at 12:00; a time alone is today's.
        let measuredAt =
            time.map { (date ?? today).instant(at: $0, in: timeZone) } ?? date.map {
                $0.instant(atHour: 12, in: timeZone)
            }
            ?? now
        if time != nil, measuredAt > now { throw ValidationError.outOfRange(.time, rule: .notInFuture) }
        // A new measurement needs the latest entries only (whether it is the newest); one logged
        // before others is recorded on the whole history.
        return try await save(sending: sending) { state in
            guard let profile = state.profile else { throw AccountError.profileNotLoaded }
            let logged = state.record(metric, value, measuredAt: measuredAt, source: .manual, notes: notes)
            state.undoLog.remember(
                .entryLogged(
                    entryId: logged.entry.id, previousHeight: metric == .height ? profile.heightCm : nil,
                    previousMeasuredAt: metric == .height ? profile.physical.heightMeasuredAt : nil,
                    wording: .logged(
                        UndoReading(
                            type: metric.type, value: value, day: CalendarDate(containing: measuredAt, in: timeZone),
                            unitSystem: profile.preferredUnitSystem))))
            return logged
        }
    }

    /// ``log(_:_:on:notes:)`` for a height; returns whether it became the current height.
    @discardableResult
    func logHeight(
        _ centimetres: Double, on date: CalendarDate? = nil, notes: String? = nil, sending: Bool = false
    ) async throws -> Bool {
        try await log(.height, centimetres, on: date, notes: notes, sending: sending).isCurrentHeight
    }

    /// Removes the entry of `metric` named `id` (its server id, or its local one while pending); offline
    /// the deletion waits in the outbox like any change. Returns the entry removed.
    @discardableResult
    func deleteEntry(of metric: Metric, id: String) async throws -> ProgressEntry {
        let timeZone = environment.timeZone
        return try await store.update { state in
            guard let entry = state.history.entry(of: metric, named: id) else {
                throw CorrectionError.noSuchEntry(id, metric: metric.id)
            }
            let wasLatest = state.history.isLatest(entry)
            try state.removeEntry(entry)
            state.undoLog.remember(
                .entryRemoved(
                    entry, wasLatest: wasLatest,
                    wording: .removed(
                        UndoReading(entry, in: timeZone, unitSystem: state.profile?.preferredUnitSystem ?? .metric))))
            return entry
        }
    }

    /// Replaces the value of the entry of `metric` named `id`, keeping when it was logged; returns the
    /// entry before and after.
    @discardableResult
    func correctEntry(of metric: Metric, id: String, to value: Double) async throws -> (
        before: ProgressEntry, after: ProgressEntry
    ) {
        try metric.check(value)
        let timeZone = environment.timeZone
        return try await store.update { state in
            guard let entry = state.history.entry(of: metric, named: id) else {
                throw CorrectionError.noSuchEntry(id, metric: metric.id)
            }
            let wasLatest = state.history.isLatest(entry)
            let corrected = try state.correctEntry(entry, to: value)
            state.undoLog.remember(
                .entryCorrected(
                    before: entry, afterId: corrected.id, wasLatest: wasLatest,
                    wording: .corrected(
                        UndoReading(entry, in: timeZone, unitSystem: state.profile?.preferredUnitSystem ?? .metric))))
            return (entry, corrected)
        }
    }

    /// Undoes the last saved change (walking back through the recent ones on each call); returns it, or
    /// `nil` when there is nothing left to undo.
    @discardableResult
    func undo() async throws -> UndoStep? {
        let now = environment.now()
        return try await store.update { try $0.undoLast(now: now) }
    }

    /// The history of `metric`, newest first; with `refresh`, new server entries are fetched first.
    public func history(of metric: Metric, refresh: Bool, since: CalendarDate? = nil) async throws -> [ProgressEntry] {
        if refresh { try await engine.refreshHistory(full: false) }
        let entries = try await store.load().history(of: metric)
        guard let since else { return entries }
        let start = since.instant(atHour: 0, in: environment.timeZone)
        return entries.filter { $0.loggedAt >= start }
    }
}
