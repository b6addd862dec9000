#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What syncing biological sex from the health source did.
public enum BiologicalSexSyncResult: Sendable, Equatable {
    /// The value changed and is queued for the server.
    case queued(BiologicalSex)
    /// The server already has this value; only its provenance was recorded.
    case unchanged(BiologicalSex)
    /// The health data says "not set"; the current value is kept.
    case notSet
    /// The health data holds a value fitiq-tui does not know; the current value is kept.
    case unknown(String)
    /// The health data has no biological sex at all.
    case missing

}

/// Use cases on the health source, the only source of biological sex.
extension Account {
    /// Reads biological sex from `source` and queues a `PATCH` only when its value changed since the
    /// last sync; "not set" or an unknown value never overwrites a known one.
    public func syncBiologicalSex(from source: any HealthSource) async throws -> BiologicalSexSyncResult {
        let snapshot = try await source.read(progress: { _ in })
        return try await applyBiologicalSex(snapshot.biologicalSex, recordedAt: snapshot.exportedAt)
    }

    /// Applies a biological sex read from the health source.
    public func applyBiologicalSex(
        _ value: HealthValue<BiologicalSex>, recordedAt: Date?
    ) async throws -> BiologicalSexSyncResult {
        try await store.update { state in
            guard state.profile != nil else { throw AccountError.profileNotLoaded }
            return state.applyHealthBiologicalSex(value, recordedAt: recordedAt)
        }
    }

    /// Imports `snapshot`, the health data of a source (``ChangeRequest/importHealth(_:fileName:)``):
    /// biological sex, the histories of the measurements, the current height, and the health date of
    /// birth (shown, never sent). Saved locally at once; the sync engine sends it.
    ///
    /// When the snapshot holds readings this machine has not seen, the server's histories are read
    /// first (two seconds at most), so that samples it already holds (imported on another machine) are
    /// not posted again; a snapshot with nothing new never touches the network.
    ///
    /// With `preview`, says what importing it would do on the history as this machine holds it, and
    /// writes and sends nothing.
    func importHealth(_ snapshot: HealthSnapshot, fileName: String?, preview: Bool = false) async throws
        -> HealthImportResult
    {
        guard try await store.load().profile != nil else { throw AccountError.profileNotLoaded }
        if preview {
            var state = try await store.load()
            guard let result = state.importHealth(snapshot, now: environment.now(), zone: environment.timeZone) else {
                throw AccountError.profileNotLoaded
            }
            return result
        }
        let days = snapshot.activity.totals()
        let zone = environment.timeZone
        let loaded = try await store.load()
        let held = loaded.heldDays(of: days, in: zone)
        if loaded.history.hasNewReadings(in: snapshot) || days.contains(where: { !held.contains(HeldDay($0)) }) {
            await readServerHistoryBriefly()
        }
        try Task.checkCancellation()
        let now = environment.now()
        return try await store.update { state in
            guard let result = state.importHealth(snapshot, now: now, fileName: fileName, zone: zone) else {
                throw AccountError.profileNotLoaded
            }
            return result
        }
    }
}

extension Account {
    /// Reads what is new in the server's history before an import queues readings, for two seconds
    /// at most (offline, the import goes on): readings the server holds are then not posted again.
    func readServerHistoryBriefly() async {
        let refresh = Task { try await engine.refreshHistory(full: false) }
        let deadline = Task {
            try? await environment.clock.sleep(for: .seconds(2))
            refresh.cancel()
        }
        _ = await refresh.result
        deadline.cancel()
    }
}
