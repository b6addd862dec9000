#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A user's profile: one immutable value. Changes return new values.
public struct UserProfile: Sendable, Codable, Equatable {
    public let identity: AccountIdentity
    public let metadata: ProfileMetadata
    public let physical: PhysicalProfile
    public let healthSync: HealthSyncState
    public let createdAt: Date?
    public let updatedAt: Date?

    public init(
        identity: AccountIdentity, metadata: ProfileMetadata, physical: PhysicalProfile = PhysicalProfile(),
        healthSync: HealthSyncState = HealthSyncState(), createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.identity = identity
        self.metadata = metadata
        self.physical = physical
        self.healthSync = healthSync
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var name: String { metadata.name }
    public var bio: String? { metadata.bio }
    public var preferredUnitSystem: UnitSystem { metadata.preferredUnitSystem }
    public var languageCode: String? { metadata.languageCode }
    public var heightCm: Double? { physical.heightCm }
    public var dateOfBirth: CalendarDate? { physical.dateOfBirth }
    public var biologicalSex: SourcedBiologicalSex? { physical.biologicalSex }

    /// A copy with new metadata.
    public func updatingMetadata(_ metadata: ProfileMetadata, at date: Date? = nil) -> UserProfile {
        UserProfile(
            identity: identity, metadata: metadata, physical: physical, healthSync: healthSync,
            createdAt: createdAt, updatedAt: date ?? updatedAt)
    }

    /// A copy with new physical data.
    public func updatingPhysical(_ physical: PhysicalProfile, at date: Date? = nil) -> UserProfile {
        UserProfile(
            identity: identity, metadata: metadata, physical: physical, healthSync: healthSync,
            createdAt: createdAt, updatedAt: date ?? updatedAt)
    }

    /// A copy with new health-sync state.
    public func updatingHealthSync(_ healthSync: HealthSyncState) -> UserProfile {
        UserProfile(
            identity: identity, metadata: metadata, physical: physical, healthSync: healthSync,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    /// A copy with a new identity (the profile id learnt from the server).
    public func updatingIdentity(_ identity: AccountIdentity) -> UserProfile {
        UserProfile(
            identity: identity, metadata: metadata, physical: physical, healthSync: healthSync,
            createdAt: createdAt, updatedAt: updatedAt)
    }

    /// A copy with the server's timestamps.
    public func updatingTimestamps(createdAt: Date?, updatedAt: Date?) -> UserProfile {
        UserProfile(
            identity: identity, metadata: metadata, physical: physical, healthSync: healthSync,
            createdAt: createdAt ?? self.createdAt, updatedAt: updatedAt ?? self.updatedAt)
    }
}
