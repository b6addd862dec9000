import Foundation

/// What syncing biological sex from the health source did.
public enum BiologicalSexSyncResult: Sendable, Equatable, CustomStringConvertible {
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

    public var description: String {
        switch self {
        case .queued(let sex): "Biological sex \(sex) from the health source; sending it to the server."
        case .unchanged(let sex): "Biological sex \(sex) from the health source; the server already has it."
        case .notSet: "The health data says biological sex is not set; the current value is kept."
        case .unknown(let raw):
            "The health data holds an unknown biological sex (\(TextSanitizer.sanitize(raw))); the current value is kept."
        case .missing: "The health data has no biological sex; the current value is kept."
        }
    }
}

/// Use case: biological sex comes only from the health source.
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
        switch value {
        case .notSet: return .notSet
        case .unknown(let raw): return .unknown(raw)
        case .missing: return .missing
        case .value(let sex):
            return try await store.update { state in
                guard state.profile != nil else { throw AccountError.profileNotLoaded }
                return state.setHealthBiologicalSex(sex, recordedAt: recordedAt) ? .queued(sex) : .unchanged(sex)
            }
        }
    }
}
