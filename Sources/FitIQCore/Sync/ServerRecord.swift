#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What this machine knows of the server's side of the account: its profile as last seen, the values
/// it acknowledged from this account, the entries removed here, and when it last answered. A three-way conflict check
/// reads it; nothing on screen does.
public struct ServerRecord: Sendable, Codable, Equatable {
    /// The server's profile as last seen: what a discarded change reverts to.
    public var copy: RemoteProfile?
    /// The recent values of each field (`name`, …, `height`; the last 20) the server acknowledged
    /// from this account: a server read that shows one (it began before a later write of ours
    /// landed) shows this account's own value, not another device's change.
    public var acknowledged: [String: [String]]
    /// Server ids of entries removed here (the latest 100): a history read that began before the
    /// removal must not bring them back.
    public var removedIds: [String]
    /// When the server last acknowledged a change or answered a pull.
    public var lastSyncAt: Date?
    /// When the histories were last read from the server.
    public var historyCheckedAt: Date?

    public init(
        copy: RemoteProfile? = nil, acknowledged: [String: [String]] = [:], removedIds: [String] = [],
        lastSyncAt: Date? = nil, historyCheckedAt: Date? = nil
    ) {
        self.copy = copy
        self.acknowledged = acknowledged
        self.removedIds = removedIds
        self.lastSyncAt = lastSyncAt
        self.historyCheckedAt = historyCheckedAt
    }

    /// How many acknowledged values of a field, and removed ids, are kept.
    static let acknowledgedLimit = 20
    static let removedLimit = 100

    /// Remembers `value` of `field` as one the server took from this account.
    mutating func acknowledge(_ field: String, _ value: String) {
        var values = (acknowledged[field] ?? []).filter { $0 != value }
        values.append(value)
        acknowledged[field] = Array(values.suffix(Self.acknowledgedLimit))
    }

    /// Whether the server's `value` of `field` is one this account sent.
    func isOwn(_ value: String, of field: String) -> Bool {
        acknowledged[field]?.contains(value) ?? false
    }

    /// Remembers that the entry `serverId` was removed here.
    mutating func rememberRemoved(_ serverId: String) {
        removedIds.append(serverId)
        if removedIds.count > Self.removedLimit { removedIds.removeFirst(removedIds.count - Self.removedLimit) }
    }

    /// The field name of the command line, JSON and acknowledgements for a metadata key.
    static func field(for key: ProfileMetadata.Key) -> String {
        switch key {
        case .name: "name"
        case .bio: "bio"
        case .preferredUnitSystem: "units"
        case .languageCode: "language"
        }
    }

    /// The metadata key a field name names (`height` is not one).
    static func key(forField field: String) -> ProfileMetadata.Key? {
        ProfileMetadata.Key.allCases.first { ServerRecord.field(for: $0) == field }
    }

    /// A height as compared with an acknowledged one (to the millimetre).
    static func heightText(_ centimetres: Double) -> String {
        String((centimetres * 10).rounded() / 10)
    }
}
