import FitIQCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `account.json`, schema version 1: `{"schemaVersion": 1, "state": {…}}`.
///
/// The file's layout is written out here, key by key, and mapped to and from the domain's
/// ``AccountState``: renaming a property of the domain changes nothing on disk, and the compiler points
/// at this mapping instead. Dates are seconds since 2001-01-01 (``CacheFileDecoding``). A change of
/// layout is a new schema version with its own types and a mapping from this one.
struct AccountFile: VersionedFileFormat {
    static let schemaVersion = 1
    var schemaVersion: Int
    var state: StateV1

    init(value: AccountState) {
        schemaVersion = Self.schemaVersion
        state = StateV1(value)
    }

    var value: AccountState {
        get throws { try state.domain() }
    }
}

extension AccountFile {
    struct StateV1: Codable, Sendable {
        var profile: ProfileV1?
        var serverCopy: ServerProfileV1?
        var outbox: OutboxV1
        var history: [EntryV1]
        var lastSyncAt: Date?
        var historyCheckedAt: Date?
        /// Added later in version 1: absent in older files, which had nothing to undo.
        var undoLog: [UndoStepV1]?
        /// Added later in version 1: absent in older files, which had removed nothing.
        var removedServerIds: [String]?
        /// Added later in version 1: absent in older files. The values the server last acknowledged
        /// from this account, by field.
        var acknowledgedValues: [String: [String]]?

        init(_ state: AccountState) {
            profile = state.profile.map(ProfileV1.init)
            serverCopy = state.server.copy.map(ServerProfileV1.init)
            outbox = OutboxV1(state.outbox)
            history = state.history.entries.map(EntryV1.init)
            lastSyncAt = state.server.lastSyncAt
            historyCheckedAt = state.server.historyCheckedAt
            undoLog = state.undoLog.steps.isEmpty ? nil : state.undoLog.steps.map(UndoStepV1.init)
            removedServerIds = state.server.removedIds.isEmpty ? nil : state.server.removedIds
            acknowledgedValues = state.server.acknowledged.isEmpty ? nil : state.server.acknowledged
        }

        func domain() throws -> AccountState {
            AccountState(
                profile: try profile?.domain,
                server: ServerRecord(
                    copy: try serverCopy?.domain, acknowledged: acknowledgedValues ?? [:],
                    removedIds: removedServerIds ?? [], lastSyncAt: lastSyncAt, historyCheckedAt: historyCheckedAt),
                outbox: try outbox.domain(), history: WholeHistory(entries: history.map(\.domain)),
                undoLog: UndoLog(try (undoLog ?? []).map { try $0.domain() }))
        }
    }

    struct MetadataV1: Codable, Sendable {
        var name: String
        var bio: String?
        var preferredUnitSystem: String
        var languageCode: String?

        init(_ metadata: ProfileMetadata) {
            name = metadata.name
            bio = metadata.bio
            preferredUnitSystem = metadata.preferredUnitSystem.rawValue
            languageCode = metadata.languageCode
        }

        func domain() throws -> ProfileMetadata {
            guard let units = UnitSystem(rawValue: preferredUnitSystem) else {
                throw AccountFile.invalid("preferredUnitSystem", preferredUnitSystem)
            }
            return ProfileMetadata(name: name, bio: bio, preferredUnitSystem: units, languageCode: languageCode)
        }
    }

    struct ProfileV1: Codable, Sendable {
        /// Who the account is, and the last health import: written as the domain's ``AccountIdentity``
        /// and ``HealthSyncState`` code them (`lastImportFileName` was added in the same version and is
        /// optional, so files written before it read as "not known"). Their keys are pinned by the
        /// format tests.
        typealias IdentityV1 = AccountIdentity
        typealias HealthSyncV1 = HealthSyncState

        struct PhysicalV1: Codable, Sendable {
            var heightCm: Double?
            var heightMeasuredAt: Date?
            var dateOfBirth: CalendarDate?
            var biologicalSex: BiologicalSexV1?
        }

        var identity: IdentityV1
        var metadata: MetadataV1
        var physical: PhysicalV1
        var healthSync: HealthSyncV1
        var createdAt: Date?
        var updatedAt: Date?

        init(_ profile: UserProfile) {
            identity = profile.identity
            metadata = MetadataV1(profile.metadata)
            physical = PhysicalV1(
                heightCm: profile.physical.heightCm, heightMeasuredAt: profile.physical.heightMeasuredAt,
                dateOfBirth: profile.physical.dateOfBirth,
                biologicalSex: profile.physical.biologicalSex.map(BiologicalSexV1.init))
            healthSync = profile.healthSync
            createdAt = profile.createdAt
            updatedAt = profile.updatedAt
        }

        var domain: UserProfile {
            get throws {
                UserProfile(
                    identity: identity,
                    metadata: try metadata.domain(),
                    physical: PhysicalProfile(
                        heightCm: physical.heightCm, heightMeasuredAt: physical.heightMeasuredAt,
                        dateOfBirth: physical.dateOfBirth, biologicalSex: try physical.biologicalSex?.domain()),
                    healthSync: healthSync,
                    createdAt: createdAt, updatedAt: updatedAt)
            }
        }
    }

    struct BiologicalSexV1: Codable, Sendable {
        var value: String
        var source: String
        var recordedAt: Date?

        init(_ sex: SourcedBiologicalSex) {
            value = sex.value.rawValue
            source = sex.source.rawValue
            recordedAt = sex.recordedAt
        }

        func domain() throws -> SourcedBiologicalSex {
            guard let sex = BiologicalSex(rawValue: value) else { throw AccountFile.invalid("biologicalSex", value) }
            guard let origin = BiologicalSexSource(rawValue: source) else {
                throw AccountFile.invalid("biologicalSex.source", source)
            }
            return SourcedBiologicalSex(value: sex, source: origin, recordedAt: recordedAt)
        }
    }

    struct ServerProfileV1: Codable, Sendable {
        var userId: String?
        var profileId: String?
        var email: String?
        var metadata: MetadataV1
        var dateOfBirth: CalendarDate?
        var heightCm: Double?
        var biologicalSex: String?
        var createdAt: Date?
        var updatedAt: Date?

        init(_ profile: RemoteProfile) {
            userId = profile.userId
            profileId = profile.profileId
            email = profile.email
            metadata = MetadataV1(profile.metadata)
            dateOfBirth = profile.dateOfBirth
            heightCm = profile.heightCm
            biologicalSex = profile.biologicalSex?.rawValue
            createdAt = profile.createdAt
            updatedAt = profile.updatedAt
        }

        var domain: RemoteProfile {
            get throws {
                RemoteProfile(
                    userId: userId, profileId: profileId, email: email, metadata: try metadata.domain(),
                    dateOfBirth: dateOfBirth, heightCm: heightCm,
                    biologicalSex: try biologicalSex.map { text in
                        guard let sex = BiologicalSex(rawValue: text) else {
                            throw AccountFile.invalid("serverCopy.biologicalSex", text)
                        }
                        return sex
                    }, createdAt: createdAt, updatedAt: updatedAt)
            }
        }
    }

    struct EntryV1: Codable, Sendable {
        var id: UUID
        var serverId: String?
        var type: String
        var quantity: Double
        var loggedAt: Date
        var notes: String?
        var source: String

        init(_ entry: ProgressEntry) {
            id = entry.id
            serverId = entry.serverId
            type = entry.type
            quantity = entry.quantity
            loggedAt = entry.loggedAt
            notes = entry.notes
            source = entry.source.rawValue
        }

        var domain: ProgressEntry {
            ProgressEntry(
                id: id, serverId: serverId, type: type, quantity: quantity, loggedAt: loggedAt, notes: notes,
                source: ProgressEntry.Source(rawValue: source) ?? .server)
        }

        /// The bytes the synthesized encoding writes, with the date and the id given as the number and
        /// the text they encode as: a first sync encodes ten thousand of them, and `JSONEncoder` makes
        /// an encoder of its own for each value it is handed as a `Date` or a `UUID`.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.uuidString, forKey: .id)
            try container.encodeIfPresent(serverId, forKey: .serverId)
            try container.encode(type, forKey: .type)
            try container.encode(quantity, forKey: .quantity)
            try container.encode(loggedAt.timeIntervalSinceReferenceDate, forKey: .loggedAt)
            try container.encodeIfPresent(notes, forKey: .notes)
            try container.encode(source, forKey: .source)
        }
    }
}
