#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one health import changed in the account.
public struct HealthImportResult: Sendable, Equatable {
    public var biologicalSex: BiologicalSexSyncResult
    /// Height samples in the health data.
    public var heightsFound: Int
    /// Ids of the history entries this import added; each is one queued `POST /progress`.
    public var newHeightEntries: [UUID]
    /// Samples outside 50–300 cm, left out.
    public var heightsOutOfRange: Int
    /// The height that became the current height (one `PATCH`), when the newest sample is newer than it.
    public var currentHeight: Double?
    /// The date of birth the health data holds, if any.
    public var healthDateOfBirth: CalendarDate?
    /// Whether that date differs from the profile's (it is shown beside it, never sent).
    public var dateOfBirthDiffers: Bool

    public init(
        biologicalSex: BiologicalSexSyncResult, heightsFound: Int = 0, newHeightEntries: [UUID] = [],
        heightsOutOfRange: Int = 0, currentHeight: Double? = nil, healthDateOfBirth: CalendarDate? = nil,
        dateOfBirthDiffers: Bool = false
    ) {
        self.biologicalSex = biologicalSex
        self.heightsFound = heightsFound
        self.newHeightEntries = newHeightEntries
        self.heightsOutOfRange = heightsOutOfRange
        self.currentHeight = currentHeight
        self.healthDateOfBirth = healthDateOfBirth
        self.dateOfBirthDiffers = dateOfBirthDiffers
    }
}

/// Health import as a pure change of the account (docs/design.md "Health import").
extension AccountState {
    /// Applies a reading of the health source: biological sex with its provenance, new height samples
    /// as history entries (one `POST` each), the newest sample as the current height (a `PATCH` only)
    /// when it is newer, the health date of birth, and the health-sync state.
    ///
    /// Importing the same data again changes nothing that is sent.
    public mutating func importHealth(_ snapshot: HealthSnapshot, now: Date, fileName: String? = nil)
        -> HealthImportResult?
    {
        guard let profile else { return nil }
        var result = HealthImportResult(
            biologicalSex: applyHealthBiologicalSex(snapshot.biologicalSex, recordedAt: snapshot.exportedAt),
            heightsFound: snapshot.heights.count)

        var newest: ProgressEntry?
        for sample in snapshot.heights.sorted(by: { $0.measuredAt < $1.measuredAt }) {
            guard Height.allowedRange.contains(sample.centimetres) else {
                result.heightsOutOfRange += 1
                continue
            }
            let entry = Self.entry(for: sample)
            newest = entry
            guard !history.contains(where: { $0.isSameMeasurement(as: entry) }) else { continue }
            history.append(entry)
            let post = NewProgressEntry(type: entry.type, quantity: entry.quantity, loggedAt: entry.loggedAt)
            outbox.progress.append(
                ProgressPost(id: entry.id, entry: post, changeId: entry.id, sendAttempted: false, delivery: Delivery()))
            result.newHeightEntries.append(entry.id)
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

    /// Whether `snapshot` holds a usable height sample that is not in the history yet.
    public func hasNewHeights(in snapshot: HealthSnapshot) -> Bool {
        snapshot.heights.contains { sample in
            guard Height.allowedRange.contains(sample.centimetres) else { return false }
            let entry = Self.entry(for: sample)
            return !history.contains { $0.isSameMeasurement(as: entry) }
        }
    }

    /// The history entry of a health sample (to a hundredth of a centimetre).
    static func entry(for sample: HeightSample) -> ProgressEntry {
        ProgressEntry(
            quantity: (sample.centimetres * 100).rounded() / 100, loggedAt: sample.measuredAt, source: .health)
    }

    /// Stores a biological sex read from the health source: a known value is kept with provenance
    /// "health source" and queued only when it differs from the current one; "not set", an unknown
    /// value or no record never overwrite anything.
    public mutating func applyHealthBiologicalSex(
        _ value: HealthValue<BiologicalSex>, recordedAt: Date?
    ) -> BiologicalSexSyncResult {
        switch value {
        case .notSet: return .notSet
        case .unknown(let raw): return .unknown(raw)
        case .missing: return .missing
        case .value(let sex):
            return setHealthBiologicalSex(sex, recordedAt: recordedAt) ? .queued(sex) : .unchanged(sex)
        }
    }
}

extension HealthImportResult {
    /// Whether the import queued anything for the server.
    public var queuedAnything: Bool {
        !newHeightEntries.isEmpty || currentHeight != nil || biologicalSex.isQueued
    }

    /// What the import did, for people: one line per subject.
    ///
    /// - Parameters:
    ///   - posted: how many of the new entries the server has acknowledged so far, when known.
    ///   - profileDateOfBirth: the profile's date of birth, named when the health data's differs.
    public func summary(unitSystem: UnitSystem, posted: Int? = nil, profileDateOfBirth: CalendarDate?) -> [String] {
        var heights = "Heights: \(heightsFound) found, \(newHeightEntries.count) new"
        if let posted { heights += ", \(posted) posted" }
        if heightsOutOfRange > 0 { heights += " (\(heightsOutOfRange) outside 50–300 cm left out)" }
        var lines = [biologicalSex.description, heights + "."]
        if let currentHeight {
            lines.append("Current height: \(Height.format(currentHeight, unitSystem: unitSystem)) (the newest sample).")
        }
        if let healthDateOfBirth, dateOfBirthDiffers {
            let profile = profileDateOfBirth.map { " (the profile keeps \($0))" } ?? ""
            lines.append("Date of birth in the health data: \(healthDateOfBirth)\(profile); it is never sent.")
        }
        return lines
    }
}

extension BiologicalSexSyncResult {
    /// Whether a `PATCH` was queued.
    public var isQueued: Bool {
        if case .queued = self { return true }
        return false
    }
}
