#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an import of readings did, per metric.
public struct ReadingsImportResult: Sendable, Equatable {
    public struct MetricResult: Sendable, Equatable {
        public var read = 0
        public var new = 0
        public var alreadyThere = 0
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
    func importReadings(_ readings: [Reading], readingServer: Bool = true) async throws
        -> ReadingsImportResult
    {
        if readingServer {
            let known = Set(try await store.load().history.map(ReadingKey.init))
            let hasNew = readings.contains { !known.contains(ReadingKey($0)) }
            if hasNew { await readServerHistoryBriefly() }
        }
        return try await store.update { state in
            guard state.profile != nil else { throw AccountError.profileNotLoaded }
            return state.merge(readings)
        }
    }

    /// What ``importReadings(_:readingServer:)`` would do with `readings` on the history as this
    /// machine holds it: how many are new and how many already held. Nothing is written or sent.
    func previewReadings(_ readings: [Reading]) async throws -> ReadingsImportResult {
        var state = try await store.load()
        guard state.profile != nil else { throw AccountError.profileNotLoaded }
        return state.merge(readings)
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
        return preview
            ? try await previewReadings(readings) : try await importReadings(readings, readingServer: readingServer)
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
