#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One measurement of the progress history; fitiq-tui keeps `height` entries.
public struct ProgressEntry: Sendable, Codable, Equatable, Identifiable {
    /// Where an entry came from.
    public enum Source: String, Sendable, Codable {
        /// Typed by the user.
        case manual
        /// Read from a health import.
        case health
        /// Found on the server.
        case server
        /// Read from a file (`import`) of fitiq-tui's own export, openScale or wger.
        case `import`
        /// Imported from another app's export (`import`), named after the app.
        case withings
        case samsungHealth = "samsung-health"
        case fitbit
        case googleFit = "google-fit"
        case healthConnect = "health-connect"
        case garmin
        case libra
        case renpho

    }

    /// Local id, stable from creation on.
    public let id: UUID
    /// The server's id once the entry is on the server.
    public var serverId: String?
    public var type: String
    public var quantity: Double
    public var loggedAt: Date
    public var notes: String?
    public var source: Source

    public init(
        id: UUID = .generated(), serverId: String? = nil, type: String = ProgressEntry.heightType, quantity: Double,
        loggedAt: Date, notes: String? = nil, source: Source
    ) {
        self.id = id
        self.serverId = serverId
        self.type = type
        self.quantity = quantity
        self.loggedAt = loggedAt
        self.notes = notes
        self.source = source
    }

    /// The progress type that holds the height history.
    public static let heightType = "height"
    /// The note of the height entry created from the profile's height.
    public static let initialHeightNote = "Initial height from profile"

    /// Whether the server has this entry.
    public var isSynced: Bool { serverId != nil }
}

extension ProgressEntry {
    /// The id people and scripts name an entry by: the server's, or the local one while it is pending.
    public var publicId: String {
        serverId ?? id.uuidString.lowercased()
    }
}
