#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An access token and the refresh token that renews it.
public struct TokenPair: Sendable, Codable, Equatable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// What registration sends.
public struct Registration: Sendable, Equatable {
    public var email: String
    public var password: String
    public var name: String
    public var dateOfBirth: CalendarDate

    public init(email: String, password: String, name: String, dateOfBirth: CalendarDate) {
        self.email = email
        self.password = password
        self.name = name
        self.dateOfBirth = dateOfBirth
    }
}

/// What registration answers.
public struct RegistrationResult: Sendable, Equatable {
    public var userId: String
    public var email: String
    public var tokens: TokenPair

    public init(userId: String, email: String, tokens: TokenPair) {
        self.userId = userId
        self.email = email
        self.tokens = tokens
    }
}

/// The server's copy of a profile, read tolerantly from either response shape.
public struct RemoteProfile: Sendable, Codable, Equatable {
    public var userId: String?
    public var profileId: String?
    public var email: String?
    public var metadata: ProfileMetadata
    public var dateOfBirth: CalendarDate?
    public var heightCm: Double?
    public var biologicalSex: BiologicalSex?
    public var createdAt: Date?
    public var updatedAt: Date?

    public init(
        userId: String? = nil, profileId: String? = nil, email: String? = nil, metadata: ProfileMetadata,
        dateOfBirth: CalendarDate? = nil, heightCm: Double? = nil, biologicalSex: BiologicalSex? = nil,
        createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.userId = userId
        self.profileId = profileId
        self.email = email
        self.metadata = metadata
        self.dateOfBirth = dateOfBirth
        self.heightCm = heightCm
        self.biologicalSex = biologicalSex
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether `other` holds the same values, whenever either was last changed: the real server's answer
    /// to `PATCH /physical` carries no `updated_at`, so the cache's copy cannot know the new one.
    public func holdsTheSameValues(as other: RemoteProfile) -> Bool {
        var aligned = self
        aligned.updatedAt = other.updatedAt
        return aligned == other
    }
}

/// The body of `PATCH /users/me/physical`: only height and biological sex, only what is set.
public struct PhysicalPatch: Sendable, Codable, Equatable {
    public var heightCm: Double?
    public var biologicalSex: BiologicalSex?

    public init(heightCm: Double? = nil, biologicalSex: BiologicalSex? = nil) {
        self.heightCm = heightCm
        self.biologicalSex = biologicalSex
    }

    /// Whether the patch has nothing to send.
    public var isEmpty: Bool { heightCm == nil && biologicalSex == nil }
}

/// A progress entry to create on the server.
public struct NewProgressEntry: Sendable, Codable, Equatable {
    public var type: String
    public var quantity: Double
    public var loggedAt: Date
    public var notes: String?

    public init(type: String, quantity: Double, loggedAt: Date, notes: String? = nil) {
        self.type = type
        self.quantity = quantity
        self.loggedAt = loggedAt
        self.notes = notes
    }
}

/// A progress entry as the server has it.
public struct RemoteProgressEntry: Sendable, Equatable {
    public var id: String
    public var type: String
    public var quantity: Double
    public var loggedAt: Date
    public var notes: String?

    public init(id: String, type: String, quantity: Double, loggedAt: Date, notes: String? = nil) {
        self.id = id
        self.type = type
        self.quantity = quantity
        self.loggedAt = loggedAt
        self.notes = notes
    }
}

/// A query of `GET /progress`.
public struct ProgressQuery: Sendable, Equatable {
    public var type: String?
    public var from: CalendarDate?
    public var to: CalendarDate?
    public var limit: Int
    public var offset: Int

    public init(
        type: String? = nil, from: CalendarDate? = nil, to: CalendarDate? = nil, limit: Int = 100, offset: Int = 0
    ) {
        self.type = type
        self.from = from
        self.to = to
        self.limit = limit
        self.offset = offset
    }
}

/// One page of `GET /progress`.
public struct ProgressPage: Sendable, Equatable {
    public var entries: [RemoteProgressEntry]
    public var total: Int
    public var limit: Int
    public var offset: Int

    public init(entries: [RemoteProgressEntry], total: Int, limit: Int, offset: Int) {
        self.entries = entries
        self.total = total
        self.limit = limit
        self.offset = offset
    }
}
