#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an import of readings did, per metric.
public struct ReadingsImportResult: Sendable, Equatable {
    public struct MetricResult: Sendable, Equatable {
        /// Readings read, or, for ``isDays``, days found.
        public var read = 0
        public var new = 0
        /// Readings, or days, the history holds already.
        public var alreadyThere = 0
        /// Whether the counts are days (an app's activity, a day's total each) rather than readings.
        public var isDays = false
        /// Days whose total breaks the metric's rule (more than 100,000 steps, a night over 24 h): left out.
        public var refused = 0
    }

    /// By metric id.
    public var metrics: [String: MetricResult] = [:]

    public subscript(metric: Metric) -> MetricResult {
        get { metrics[metric.id] ?? MetricResult() }
        set { metrics[metric.id] = newValue }
    }
}

extension Account {
    /// Adds the readings the history lacks (same metric, minute and value: already there), each a
    /// history entry and one queued `POST /progress`, in one save: all of them or none.
    ///
    /// When the file holds readings this machine has not seen, the server's history is read first (two
    /// seconds at most), so that readings it holds (imported on another machine, or before the cache
    /// was wiped) are not posted again.
    ///
    /// With `readingServer` false (`--no-sync`: nothing goes over the network) the server is not asked.
    /// `days`, an app's activity a day's total each, are added as one entry a day where the history
    /// holds no entry of that metric on that day in `zone` (``AccountState/merge(_:in:into:)``).
    func importReadings(_ readings: [Reading], days: [DayTotal] = [], readingServer: Bool = true) async throws
        -> ReadingsImportResult
    {
        let zone = environment.timeZone
        if readingServer {
            let state = try await store.load()
            let known = Set(state.history.map(ReadingKey.init))
            let held = state.heldDays(of: days, in: zone)
            let hasNew =
                readings.contains { !known.contains(ReadingKey($0)) }
                || days.contains { !held.contains(HeldDay($0)) }
            if hasNew { await readServerHistoryBriefly() }
        }
        return try await store.update { state in
            guard state.profile != nil else { throw AccountError.profileNotLoaded }
            var result = state.merge(readings)
            state.merge(days, in: zone, into: &result)
            return result
        }
    }

    /// What ``importReadings(_:days:readingServer:)`` would do on the history as this machine holds it:
    /// how many are new and how many already held. Nothing is written or sent.
    func previewReadings(_ readings: [Reading], days: [DayTotal] = []) async throws -> ReadingsImportResult {
        var state = try await store.load()
        guard state.profile != nil else { throw AccountError.profileNotLoaded }
        var result = state.merge(readings)
        state.merge(days, in: environment.timeZone, into: &result)
        return result
    }
}

/// A metric's local day: what an imported day's total is compared by.
struct HeldDay: Hashable {
    var type: String
    var day: CalendarDate

    init(_ total: DayTotal) {
        type = total.metric.type
        day = total.day
    }

    init(_ entry: ProgressEntry, in zone: LocalZone) {
        type = entry.type
        day = CalendarDate(containing: entry.loggedAt, in: zone)
    }
}

extension AccountState {
    /// Adds the readings the history lacks, each a history entry and a queued `POST /progress`; one
    /// already held (``ReadingKey``), or twice in `readings`, counts once.
    mutating func merge(_ readings: [Reading]) -> ReadingsImportResult {
        var result = ReadingsImportResult()
        var seen: [ReadingKey: Int] = [:]
        for (index, entry) in history.enumerated() { seen[ReadingKey(entry)] = index }
        for reading in readings.sorted(by: { $0.loggedAt < $1.loggedAt }) {
            result[reading.metric].read += 1
            let source = reading.source ?? .import
            let key = ReadingKey(reading)
            if let index = seen[key] {
                // Known only as the server's: the file says where it came from (kept here, never sent).
                if history[index].source == .server, source != .server, source != .import {
                    history[index].source = source
                }
                result[reading.metric].alreadyThere += 1
                continue
            }
            record(reading.metric, reading.value, measuredAt: reading.loggedAt, source: source, notes: reading.notes)
            seen[key] = history.count - 1  // recorded at the end
            result[reading.metric].new += 1
        }
        return result
    }

    /// The days of `days`' metrics that the history holds an entry on, in `zone`, and the days whose
    /// total it holds as the same reading (``ReadingKey``): a day imported before is held wherever the
    /// import runs.
    func heldDays(of days: [DayTotal], in zone: LocalZone) -> Set<HeldDay> {
        guard !days.isEmpty else { return [] }
        let types = Set(days.map(\.metric.type))
        let entries = history.filter { types.contains($0.type) }
        var held = Set(entries.map { HeldDay($0, in: zone) })
        let readings = Set(entries.map(ReadingKey.init))
        for total in days {
            if let value = total.checkedValue,
                readings.contains(ReadingKey(type: total.metric.type, loggedAt: total.loggedAt, quantity: value))
            {
                held.insert(HeldDay(total))
            }
        }
        return held
    }

    /// Adds each of `days` (an app's activity, a day's total each) as one entry and a queued `POST
    /// /progress`, unless the history holds that metric on that day in `zone` already (from any app,
    /// typed, or imported before): that day is left as it is and counted as held. A total the metric's
    /// rule refuses is counted and left out.
    mutating func merge(_ days: [DayTotal], in zone: LocalZone, into result: inout ReadingsImportResult) {
        var held = heldDays(of: days, in: zone)
        // Ten years of activity is thousands of posts: the queue grows once, not by doubling.
        outbox.progress.reserveCapacity(outbox.progress.count + days.count)
        for total in days {
            result[total.metric].isDays = true
            result[total.metric].read += 1
            guard held.insert(HeldDay(total)).inserted else {
                result[total.metric].alreadyThere += 1
                continue
            }
            guard let value = total.checkedValue else {
                result[total.metric].refused += 1
                continue
            }
            record(total.metric, value, measuredAt: total.loggedAt, source: total.app)
            result[total.metric].new += 1
        }
    }
}

extension DayTotal {
    /// The value as an entry holds it (to a hundredth; a whole number for a whole metric), or `nil`
    /// when the metric's rule refuses it.
    var checkedValue: Double? {
        let rounded = metric == .steps ? value.rounded() : (value * 100).rounded() / 100
        do throws(ValidationError) {
            try metric.check(rounded)
            return rounded
        } catch {
            return nil
        }
    }
}

/// A file of another app's export, read: its name in the folder or zip, and what it held.
public struct ImportedFile: Sendable, Equatable {
    public var name: String
    public var file: FileReadings

    public init(name: String, file: FileReadings) {
        self.name = name
        self.file = file
    }
}

/// The I/O of `import`: what a path holds (a file, a zip, a folder), read entry by entry by the
/// importers' list of formats (FitIQImport's `ExportWalk`).
public protocol ExportFiles: Sendable {
    /// Whether `path` is an Apple Health export (read by a ``HealthSource`` instead).
    func isAppleHealthExport(_ path: String) -> Bool
    /// The machine's zone as people name it (`Europe/Berlin`), for the summary's word on local times.
    var zoneName: String { get }
    /// What the format named `format` is, for people (the app and its file).
    func describe(format: String) -> String
    /// Every file of a known format at `path` (only those of the format named `format`, when given);
    /// `progress` hears how many bytes of the path are read.
    func read(
        _ path: String, format: String?, options: ImportOptions, heightCm: Double?,
        progress: @escaping @Sendable (HealthReadProgress) -> Void
    ) throws -> [ImportedFile]
}

extension Account {
    /// Imports the readings of `files` (or, `preview`, says what importing them would do, writing
    /// nothing): none when a row breaks a rule, unless `skipInvalid`.
    ///
    /// - Throws: ``BadRowsError`` naming each bad row's file, line and rule.
    func importFiles(
        _ files: [ImportedFile], skipInvalid: Bool = false, preview: Bool = false, readingServer: Bool = true
    ) async throws -> ReadingsImportResult {
        let problems = files.flatMap { imported in
            imported.file.badRows.map { problem in
                var named = problem
                named.file = files.count > 1 ? imported.name : nil
                return named
            }
        }
        if !problems.isEmpty && !skipInvalid { throw BadRowsError(problems: problems) }
        let readings = files.flatMap(\.file.readings)
        var activity = ActivityDays()
        for imported in files where !imported.file.activity.isEmpty { activity.merge(imported.file.activity) }
        let days = activity.totals()
        return preview
            ? try await previewReadings(readings, days: days)
            : try await importReadings(readings, days: days, readingServer: readingServer)
    }
}

/// Files with rows that break a rule, imported not at all.
public struct BadRowsError: Error, Equatable, Sendable {
    public var problems: [BadRow]

}

extension ReadingsImportResult {

    /// Whether anything new was queued.
    public var queuedAnything: Bool { metrics.values.contains { $0.new > 0 } }
}

extension ReadingKey {
    init(_ reading: Reading) {
        self.init(type: reading.metric.type, loggedAt: reading.loggedAt, quantity: reading.value)
    }
}
