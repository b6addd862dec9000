#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one health import changed in the account.
public struct HealthImportResult: Sendable, Equatable {
    /// What the import did with one metric's samples.
    public struct MetricResult: Sendable, Equatable {
        /// Samples in the health data, as many times as the data holds each.
        public var found = 0
        /// Ids of the history entries this import added; each is one queued `POST /progress`.
        public var newEntries: [UUID] = []
        /// Samples outside the metric's range, left out (for ``isDays``, days whose total is).
        public var outOfRange = 0
        /// Whether ``found`` counts days (steps, sleep, …: a day's total each) rather than samples.
        public var isDays = false
        /// Days that held the metric already (from any app, typed, or imported before): left as they were.
        public var daysHeld = 0

        public init(found: Int = 0, newEntries: [UUID] = [], outOfRange: Int = 0) {
            self.found = found
            self.newEntries = newEntries
            self.outOfRange = outOfRange
        }
    }

    public var biologicalSex: BiologicalSexSyncResult
    /// By metric id; a metric without samples has no result.
    public var metrics: [String: MetricResult]
    /// The height that became the current height (one `PATCH`), when the newest sample is newer than it.
    public var currentHeight: Double?
    /// The date of birth the health data holds, if any.
    public var healthDateOfBirth: CalendarDate?
    /// Whether that date differs from the profile's (it is shown beside it, never sent).
    public var dateOfBirthDiffers: Bool
    /// Activity records left out for breaking a rule: the first few, by line, and how many in all.
    public var refusedRecords: [BadRow] = []
    public var refusedRecordCount = 0

    public init(
        biologicalSex: BiologicalSexSyncResult, metrics: [String: MetricResult] = [:], currentHeight: Double? = nil,
        healthDateOfBirth: CalendarDate? = nil, dateOfBirthDiffers: Bool = false
    ) {
        self.biologicalSex = biologicalSex
        self.metrics = metrics
        self.currentHeight = currentHeight
        self.healthDateOfBirth = healthDateOfBirth
        self.dateOfBirthDiffers = dateOfBirthDiffers
    }

    /// What the import did with `metric`'s samples.
    public subscript(metric: Metric) -> MetricResult {
        get { metrics[metric.id] ?? MetricResult() }
        set { metrics[metric.id] = newValue }
    }

    /// The ids of every entry the import added, of every metric.
    public var newEntries: [UUID] {
        Metric.all.flatMap { self[$0].newEntries }
    }
}

/// Health import as a pure change of the account (docs/architecture.md "Health import").
extension AccountState {
    /// Applies a reading of the health source: biological sex with its provenance, new height samples
    /// as history entries (one `POST` each), the newest sample as the current height (a `PATCH` only)
    /// when it is newer, the health date of birth, and the health-sync state.
    ///
    /// Importing the same data again changes nothing that is sent.
    ///
    /// The activity (steps, sleep, …) becomes a day's total each, on the days the history does not hold
    /// that metric on in `zone` (``merge(_:in:into:)``).
    public mutating func importHealth(
        _ snapshot: HealthSnapshot, now: Date, fileName: String? = nil, zone: LocalZone = .utc
    ) -> HealthImportResult? {
        guard let profile else { return nil }
        var result = HealthImportResult(
            biologicalSex: applyHealthBiologicalSex(snapshot.biologicalSex, recordedAt: snapshot.exportedAt))
        var seen = Set(history.map(ReadingKey.init))
        var newest: ProgressEntry?
        for sample in snapshot.samples.sorted(by: { $0.measuredAt < $1.measuredAt }) {
            result[sample.metric].found += 1
            guard sample.metric.allowedRange.contains(sample.value) else {
                result[sample.metric].outOfRange += 1
                continue
            }
            let entry = ProgressEntry(sample)
            if sample.metric == .height { newest = entry }
            // Several sources write the same reading, and a correlation repeats its records: one
            // reading (same value in the same minute) is one entry.
            guard seen.insert(ReadingKey(entry)).inserted else { continue }
            history.append(entry)
            outbox.post(entry)
            result[sample.metric].newEntries.append(entry.id)
        }
        result.refusedRecords = snapshot.refusedRecords
        result.refusedRecordCount = snapshot.refusedRecordCount
        if !snapshot.activity.isEmpty {
            var days = ReadingsImportResult()
            let before = history.count
            merge(snapshot.activity.totals(), in: zone, into: &days)
            for entry in history[before...] {
                result.metrics[Metric.ofType(entry.type)?.id ?? entry.type, default: .init()].newEntries.append(
                    entry.id)
            }
            for (id, counts) in days.metrics {
                result.metrics[id, default: .init()].isDays = true
                result.metrics[id, default: .init()].found += counts.read
                result.metrics[id, default: .init()].daysHeld += counts.alreadyThere
                result.metrics[id, default: .init()].outOfRange += counts.refused
            }
        }
        if let newest, profile.physical.heightMeasuredAt.map({ newest.loggedAt > $0 }) ?? true,
            setCurrentHeight(newest.quantity, measuredAt: newest.loggedAt, changeId: newest.id)
        {
            result.currentHeight = newest.quantity
        }

        guard let updated = self.profile else { return result }
        var healthSync = updated.healthSync
        healthSync.hasPerformedInitialHealthSync = true
        healthSync.lastHealthSyncAt = now
        healthSync.lastImportFileName = fileName ?? healthSync.lastImportFileName
        if case .value(let dateOfBirth) = snapshot.dateOfBirth {
            healthSync.healthDateOfBirth = dateOfBirth
            result.healthDateOfBirth = dateOfBirth
            result.dateOfBirthDiffers = updated.physical.dateOfBirth.map { $0 != dateOfBirth } ?? false
        }
        self.profile = updated.updatingHealthSync(healthSync)
        return result
    }

}

extension AccountRecord {
    /// Stores a biological sex read from the health source: a known value is kept with provenance
    /// "health source" and queued only when it differs from the current one; "not set", an unknown
    /// value or no record never overwrite anything.
    @discardableResult
    public mutating func applyHealthBiologicalSex(
        _ value: HealthValue<BiologicalSex>, recordedAt: Date?
    ) -> BiologicalSexSyncResult {
        switch value {
        case .notSet: return .notSet
        case .unknown(let raw): return .unknown(raw)
        case .missing: return .missing
        case .value(let sex):
            guard let profile else { return .unchanged(sex) }
            let previous = profile.physical.biologicalSex
            var physical = profile.physical
            physical.biologicalSex = SourcedBiologicalSex(value: sex, source: .health, recordedAt: recordedAt)
            self.profile = profile.updatingPhysical(physical)
            // The server already holds this value when the previous one (health-sourced or the account's)
            // was the same; the health source only confirms it.
            guard previous?.value != sex else { return .unchanged(sex) }
            outbox.queuePhysical(height: false, biologicalSex: true, changeId: UUID(), server: server.copy)
            return .queued(sex)
        }
    }
}

extension HealthImportResult {
    /// Whether the import queued anything for the server.
    public var queuedAnything: Bool {
        !newEntries.isEmpty || currentHeight != nil || biologicalSex.isQueued
    }

}

extension BiologicalSexSyncResult {
    /// Whether a `PATCH` was queued.
    public var isQueued: Bool {
        if case .queued = self { return true }
        return false
    }
}

extension ProgressEntry {
    /// The history entry of a health sample (to a hundredth of the metric's unit).
    init(_ sample: MeasurementSample) {
        self.init(
            type: sample.metric.type, quantity: (sample.value * 100).rounded() / 100, loggedAt: sample.measuredAt,
            source: .health)
    }
}

extension WholeHistory {
    /// Whether `snapshot` holds a usable sample that is not in the history yet.
    public func hasNewReadings(in snapshot: HealthSnapshot) -> Bool {
        let seen = Set(map(ReadingKey.init))
        return snapshot.samples.contains { sample in
            sample.metric.allowedRange.contains(sample.value)
                && !seen.contains(
                    ReadingKey(
                        type: sample.metric.type, loggedAt: sample.measuredAt,
                        quantity: (sample.value * 100).rounded() / 100))
        }
    }
}
