#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Biological sex as the health source records it. Never typed by the user.
public enum BiologicalSex: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case male, female, other

    /// The word shown to people: `Female`.
    public var description: String { rawValue.capitalized }

}

/// Where a biological sex value came from.
public enum BiologicalSexSource: String, Sendable, Codable {
    /// A health import supplied it.
    case health
    /// Only the server had it (set before the health-source rule); shown read-only until confirmed.
    case account
}

/// A biological sex value together with its provenance.
public struct SourcedBiologicalSex: Sendable, Codable, Equatable {
    public var value: BiologicalSex
    public var source: BiologicalSexSource
    /// When the health source recorded it (the export's date), if known.
    public var recordedAt: Date?

    public init(value: BiologicalSex, source: BiologicalSexSource, recordedAt: Date? = nil) {
        self.value = value
        self.source = source
        self.recordedAt = recordedAt
    }
}
