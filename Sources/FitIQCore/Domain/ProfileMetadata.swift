#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The metadata form: what `PUT /users/me` replaces as one request.
public struct ProfileMetadata: Sendable, Codable, Equatable {
    public var name: String
    public var bio: String?
    public var preferredUnitSystem: UnitSystem
    public var languageCode: String?

    public init(
        name: String, bio: String? = nil, preferredUnitSystem: UnitSystem = .metric, languageCode: String? = nil
    ) {
        self.name = name
        self.bio = bio
        self.preferredUnitSystem = preferredUnitSystem
        self.languageCode = languageCode
    }

    /// The metadata fields, used to say which fields an edit touched.
    public enum Key: String, Sendable, Codable, CaseIterable, Comparable {
        case name, bio, preferredUnitSystem, languageCode

        public var field: Field {
            switch self {
            case .name: .name
            case .bio: .bio
            case .preferredUnitSystem: .unitSystem
            case .languageCode: .languageCode
            }
        }

        public static func < (lhs: Key, rhs: Key) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// The fields whose values differ from `other`.
    public func changedKeys(from other: ProfileMetadata) -> Set<Key> {
        var keys: Set<Key> = []
        if name != other.name { keys.insert(.name) }
        if (bio ?? "") != (other.bio ?? "") { keys.insert(.bio) }
        if preferredUnitSystem != other.preferredUnitSystem { keys.insert(.preferredUnitSystem) }
        if (languageCode ?? "") != (other.languageCode ?? "") { keys.insert(.languageCode) }
        return keys
    }

    /// The value of `key` as text, for comparisons and for people (an absent bio or language is `""`).
    public func value(of key: Key) -> String {
        switch key {
        case .name: name
        case .bio: bio ?? ""
        case .preferredUnitSystem: preferredUnitSystem.rawValue
        case .languageCode: languageCode ?? ""
        }
    }

    /// A copy whose `keys` take their values from `other`.
    public func taking(_ keys: Set<Key>, from other: ProfileMetadata) -> ProfileMetadata {
        var copy = self
        if keys.contains(.name) { copy.name = other.name }
        if keys.contains(.bio) { copy.bio = other.bio }
        if keys.contains(.preferredUnitSystem) { copy.preferredUnitSystem = other.preferredUnitSystem }
        if keys.contains(.languageCode) { copy.languageCode = other.languageCode }
        return copy
    }
}

/// The physical data of a profile. Height is editable; date of birth and biological sex are not.
public struct PhysicalProfile: Sendable, Codable, Equatable {
    public var heightCm: Double?
    /// When the current height was measured or entered; decides whether an older sample may replace it.
    public var heightMeasuredAt: Date?
    /// Set at registration; shown read-only and never sent in `PATCH /physical`.
    public var dateOfBirth: CalendarDate?
    public var biologicalSex: SourcedBiologicalSex?

    public init(
        heightCm: Double? = nil, heightMeasuredAt: Date? = nil, dateOfBirth: CalendarDate? = nil,
        biologicalSex: SourcedBiologicalSex? = nil
    ) {
        self.heightCm = heightCm
        self.heightMeasuredAt = heightMeasuredAt
        self.dateOfBirth = dateOfBirth
        self.biologicalSex = biologicalSex
    }
}

/// Local state of the last health import.
public struct HealthSyncState: Sendable, Codable, Equatable {
    public var hasPerformedInitialHealthSync: Bool
    public var lastHealthSyncAt: Date?
    /// The date of birth the health source gave, shown beside the profile's when they differ.
    public var healthDateOfBirth: CalendarDate?
    /// The file of the last import (`export.zip`).
    public var lastImportFileName: String?

    public init(
        hasPerformedInitialHealthSync: Bool = false, lastHealthSyncAt: Date? = nil,
        healthDateOfBirth: CalendarDate? = nil, lastImportFileName: String? = nil
    ) {
        self.hasPerformedInitialHealthSync = hasPerformedInitialHealthSync
        self.lastHealthSyncAt = lastHealthSyncAt
        self.healthDateOfBirth = healthDateOfBirth
        self.lastImportFileName = lastImportFileName
    }
}

/// Who the profile belongs to.
public struct AccountIdentity: Sendable, Codable, Equatable {
    /// The user id (`sub` of the access token).
    public var userId: String
    public var email: String
    /// The server's profile id, once known.
    public var profileId: String?

    public init(userId: String, email: String, profileId: String? = nil) {
        self.userId = userId
        self.email = email
        self.profileId = profileId
    }
}
