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

        init(_ state: AccountState) {
            profile = state.profile.map(ProfileV1.init)
            serverCopy = state.serverCopy.map(ServerProfileV1.init)
            outbox = OutboxV1(state.outbox)
            history = state.history.map(EntryV1.init)
            lastSyncAt = state.lastSyncAt
            historyCheckedAt = state.historyCheckedAt
            undoLog = state.undoLog.isEmpty ? nil : state.undoLog.map(UndoStepV1.init)
            removedServerIds = state.removedServerIds.isEmpty ? nil : state.removedServerIds
        }

        func domain() throws -> AccountState {
            AccountState(
                profile: try profile?.domain, serverCopy: try serverCopy?.domain, outbox: try outbox.domain(),
                history: history.map(\.domain), lastSyncAt: lastSyncAt, historyCheckedAt: historyCheckedAt,
                undoLog: try (undoLog ?? []).map { try $0.domain() }, removedServerIds: removedServerIds ?? [])
        }
    }

    /// One change `undo` can reverse: its kind, what it was, and what the kind needs.
    struct UndoStepV1: Codable, Sendable {
        var kind: String
        var description: String
        var previousMetadata: MetadataV1?
        var entry: EntryV1?
        var entryId: UUID?
        var previousHeight: Double?
        var previousMeasuredAt: Date?
        var wasLatest: Bool?

        init(_ step: UndoStep) {
            description = step.description
            switch step {
            case .metadata(let previous, _):
                kind = "metadata"
                previousMetadata = MetadataV1(previous)
            case .heightLogged(let entryId, let height, let measuredAt, _):
                kind = "heightLogged"
                self.entryId = entryId
                previousHeight = height
                previousMeasuredAt = measuredAt
            case .entryRemoved(let entry, let wasLatest, _):
                kind = "entryRemoved"
                self.entry = EntryV1(entry)
                self.wasLatest = wasLatest
            case .entryCorrected(let before, let afterId, let wasLatest, _):
                kind = "entryCorrected"
                entry = EntryV1(before)
                entryId = afterId
                self.wasLatest = wasLatest
            }
        }

        func domain() throws -> UndoStep {
            switch kind {
            case "metadata":
                guard let previous = try previousMetadata?.domain() else { break }
                return .metadata(previous: previous, description: description)
            case "heightLogged":
                guard let entryId else { break }
                return .heightLogged(
                    entryId: entryId, previousHeight: previousHeight, previousMeasuredAt: previousMeasuredAt,
                    description: description)
            case "entryRemoved":
                guard let entry else { break }
                return .entryRemoved(entry.domain, wasLatest: wasLatest ?? false, description: description)
            case "entryCorrected":
                guard let entry, let entryId else { break }
                return .entryCorrected(
                    before: entry.domain, afterId: entryId, wasLatest: wasLatest ?? false, description: description)
            default:
                break
            }
            throw AccountFile.invalid("undoLog.kind", kind)
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
        struct IdentityV1: Codable, Sendable {
            var userId: String
            var email: String
            var profileId: String?
        }

        struct PhysicalV1: Codable, Sendable {
            var heightCm: Double?
            var heightMeasuredAt: Date?
            var dateOfBirth: CalendarDate?
            var biologicalSex: BiologicalSexV1?
        }

        struct HealthSyncV1: Codable, Sendable {
            var hasPerformedInitialHealthSync: Bool
            var lastHealthSyncAt: Date?
            var healthDateOfBirth: CalendarDate?
            /// Added in the same version: optional, so files written before it read as "not known".
            var lastImportFileName: String?
        }

        var identity: IdentityV1
        var metadata: MetadataV1
        var physical: PhysicalV1
        var healthSync: HealthSyncV1
        var createdAt: Date?
        var updatedAt: Date?

        init(_ profile: UserProfile) {
            identity = IdentityV1(
                userId: profile.identity.userId, email: profile.identity.email, profileId: profile.identity.profileId)
            metadata = MetadataV1(profile.metadata)
            physical = PhysicalV1(
                heightCm: profile.physical.heightCm, heightMeasuredAt: profile.physical.heightMeasuredAt,
                dateOfBirth: profile.physical.dateOfBirth,
                biologicalSex: profile.physical.biologicalSex.map(BiologicalSexV1.init))
            healthSync = HealthSyncV1(
                hasPerformedInitialHealthSync: profile.healthSync.hasPerformedInitialHealthSync,
                lastHealthSyncAt: profile.healthSync.lastHealthSyncAt,
                healthDateOfBirth: profile.healthSync.healthDateOfBirth,
                lastImportFileName: profile.healthSync.lastImportFileName)
            createdAt = profile.createdAt
            updatedAt = profile.updatedAt
        }

        var domain: UserProfile {
            get throws {
                UserProfile(
                    identity: AccountIdentity(
                        userId: identity.userId, email: identity.email, profileId: identity.profileId),
                    metadata: try metadata.domain(),
                    physical: PhysicalProfile(
                        heightCm: physical.heightCm, heightMeasuredAt: physical.heightMeasuredAt,
                        dateOfBirth: physical.dateOfBirth, biologicalSex: try physical.biologicalSex?.domain()),
                    healthSync: HealthSyncState(
                        hasPerformedInitialHealthSync: healthSync.hasPerformedInitialHealthSync,
                        lastHealthSyncAt: healthSync.lastHealthSyncAt, healthDateOfBirth: healthSync.healthDateOfBirth,
                        lastImportFileName: healthSync.lastImportFileName),
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
    }
}

extension AccountFile {
    struct OutboxV1: Codable, Sendable {
        var metadata: MetadataChangeV1?
        var physical: PhysicalChangeV1?
        var progress: [ProgressPostV1]
        /// Added later in version 1: absent in older files, which had none.
        var deletions: [DeletionV1]?

        init(_ outbox: Outbox) {
            metadata = outbox.metadata.map(MetadataChangeV1.init)
            physical = outbox.physical.map(PhysicalChangeV1.init)
            progress = outbox.progress.map(ProgressPostV1.init)
            deletions = outbox.deletions.isEmpty ? nil : outbox.deletions.map(DeletionV1.init)
        }

        func domain() throws -> Outbox {
            Outbox(
                metadata: try metadata?.domain(), physical: physical?.domain, progress: progress.map(\.domain),
                deletions: (deletions ?? []).map(\.domain))
        }
    }

    struct DeletionV1: Codable, Sendable {
        var id: UUID
        var serverId: String
        var quantity: Double
        var loggedAt: Date
        var changeId: UUID
        var delivery: DeliveryV1

        init(_ deletion: ProgressDeletion) {
            id = deletion.id
            serverId = deletion.serverId
            quantity = deletion.quantity
            loggedAt = deletion.loggedAt
            changeId = deletion.changeId
            delivery = DeliveryV1(deletion.delivery)
        }

        var domain: ProgressDeletion {
            ProgressDeletion(
                id: id, serverId: serverId, quantity: quantity, loggedAt: loggedAt, changeId: changeId,
                delivery: delivery.domain)
        }
    }

    struct DeliveryV1: Codable, Sendable {
        struct ClaimV1: Codable, Sendable {
            struct HolderV1: Codable, Sendable {
                var pid: Int32
                var startTime: UInt64
            }

            var owner: UUID
            var until: Date
            var holder: HolderV1?
        }

        var attempts: Int
        var notBefore: Date?
        var lastError: String?
        var rejection: String?
        var claim: ClaimV1?

        init(_ delivery: Delivery) {
            attempts = delivery.attempts
            notBefore = delivery.notBefore
            lastError = delivery.lastError
            rejection = delivery.rejection
            claim = delivery.claim.map { claim in
                ClaimV1(
                    owner: claim.owner, until: claim.until,
                    holder: claim.holder.map { ClaimV1.HolderV1(pid: $0.pid, startTime: $0.startTime) })
            }
        }

        var domain: Delivery {
            Delivery(
                attempts: attempts, notBefore: notBefore, lastError: lastError, rejection: rejection,
                claim: claim.map { claim in
                    Claim(
                        owner: claim.owner, until: claim.until,
                        holder: claim.holder.map { ProcessIdentity(pid: $0.pid, startTime: $0.startTime) })
                })
        }
    }

    struct MetadataChangeV1: Codable, Sendable {
        var changeId: UUID
        var revision: Int
        /// The changed fields: `name`, `bio`, `preferredUnitSystem`, `languageCode`.
        var keys: [String]
        var delivery: DeliveryV1

        init(_ change: MetadataChange) {
            changeId = change.changeId
            revision = change.revision
            keys = change.keys.sorted().map { Self.name($0) }
            delivery = DeliveryV1(change.delivery)
        }

        func domain() throws -> MetadataChange {
            let fields = try keys.map { name in
                guard let key = Self.key(name) else { throw AccountFile.invalid("outbox.metadata.keys", name) }
                return key
            }
            return MetadataChange(
                changeId: changeId, revision: revision, keys: Set(fields), delivery: delivery.domain)
        }

        private static func name(_ key: ProfileMetadata.Key) -> String {
            switch key {
            case .name: "name"
            case .bio: "bio"
            case .preferredUnitSystem: "preferredUnitSystem"
            case .languageCode: "languageCode"
            }
        }

        private static func key(_ name: String) -> ProfileMetadata.Key? {
            ProfileMetadata.Key.allCases.first { Self.name($0) == name }
        }
    }

    struct PhysicalChangeV1: Codable, Sendable {
        var revision: Int
        var includesHeight: Bool
        var includesBiologicalSex: Bool
        var changeIds: [UUID]
        var delivery: DeliveryV1

        init(_ change: PhysicalChange) {
            revision = change.revision
            includesHeight = change.includesHeight
            includesBiologicalSex = change.includesBiologicalSex
            changeIds = change.changeIds.sorted { $0.uuidString < $1.uuidString }
            delivery = DeliveryV1(change.delivery)
        }

        var domain: PhysicalChange {
            PhysicalChange(
                revision: revision, includesHeight: includesHeight, includesBiologicalSex: includesBiologicalSex,
                changeIds: Set(changeIds), delivery: delivery.domain)
        }
    }

    struct ProgressPostV1: Codable, Sendable {
        struct NewEntryV1: Codable, Sendable {
            var type: String
            var quantity: Double
            var loggedAt: Date
            var notes: String?
        }

        var id: UUID
        var entry: NewEntryV1
        var changeId: UUID
        var sendAttempted: Bool
        var delivery: DeliveryV1

        init(_ post: ProgressPost) {
            id = post.id
            entry = NewEntryV1(
                type: post.entry.type, quantity: post.entry.quantity, loggedAt: post.entry.loggedAt,
                notes: post.entry.notes)
            changeId = post.changeId
            sendAttempted = post.sendAttempted
            delivery = DeliveryV1(post.delivery)
        }

        var domain: ProgressPost {
            ProgressPost(
                id: id,
                entry: NewProgressEntry(
                    type: entry.type, quantity: entry.quantity, loggedAt: entry.loggedAt, notes: entry.notes),
                changeId: changeId, sendAttempted: sendAttempted, delivery: delivery.domain)
        }
    }

    /// A value the domain does not know (a unit system, a sex, a field name): the file is unreadable.
    struct InvalidValue: Error, CustomStringConvertible {
        let field: String
        let value: String
        var description: String { "the field \(field) holds \"\(value)\", which this fitiq-tui does not know" }
    }

    static func invalid(_ field: String, _ value: String) -> InvalidValue {
        InvalidValue(field: field, value: TextSanitizer.sanitize(value))
    }
}
