import FitIQCore
import FitIQWords

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `account.json` version 1, continued: the outbox and the undo log (see ``AccountFile``).
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
            progress = outbox.progress
            deletions = outbox.deletions.isEmpty ? nil : outbox.deletions.map(DeletionV1.init)
        }

        func domain() throws -> Outbox {
            Outbox(
                metadata: try metadata?.domain(), physical: physical?.domain, progress: progress,
                deletions: (deletions ?? []).map(\.domain))
        }
    }

    struct DeletionV1: Codable, Sendable {
        var id: UUID
        var serverId: String
        /// Absent in files written before deletions named their metric: those were all heights.
        var type: String?
        var quantity: Double
        var loggedAt: Date
        /// Added later in version 1 (absent in older files): the removed entry's notes and source, so a
        /// dropped removal brings it back as it was.
        var notes: String?
        var source: String?
        var changeId: UUID
        var delivery: DeliveryV1
        /// Added later in version 1, written only when true (absent in older files, whose removals
        /// count as never sent): the removal went out at least once.
        var sendAttempted: Bool?

        init(_ deletion: ProgressDeletion) {
            let entry = deletion.entry
            (id, serverId, type, quantity, loggedAt) = (
                entry.id, deletion.serverId, entry.type, entry.quantity, entry.loggedAt
            )
            (notes, source, changeId, delivery) = (
                entry.notes, entry.source.rawValue, deletion.changeId, deletion.delivery
            )
            sendAttempted = deletion.sendAttempted ? true : nil
        }

        var domain: ProgressDeletion {
            let entry = ProgressEntry(
                id: id, serverId: serverId, type: type ?? ProgressEntry.heightType, quantity: quantity,
                loggedAt: loggedAt, notes: notes, source: source.flatMap(ProgressEntry.Source.init) ?? .server)
            return ProgressDeletion(
                removing: entry, serverId: serverId, changeId: changeId, delivery: delivery,
                sendAttempted: sendAttempted ?? false)
        }
    }

    /// An entry's delivery bookkeeping (attempts, backoff, the sender's claim) is written as the
    /// domain's ``Delivery`` codes it: sync machinery only, its keys pinned by the format tests.
    typealias DeliveryV1 = Delivery

    struct MetadataChangeV1: Codable, Sendable {
        var changeId: UUID
        var revision: Int
        /// The changed fields: `name`, `bio`, `preferredUnitSystem`, `languageCode`.
        var keys: [String]
        var delivery: DeliveryV1
        /// Added later in version 1 (absent in older files, which had none): the server's value each
        /// changed field was edited from, and the fields held as conflicts.
        var bases: [String: String]?
        var conflicts: [String]?

        init(_ change: MetadataChange) {
            changeId = change.changeId
            revision = change.revision
            keys = change.keys.sorted().map { Self.name($0) }
            delivery = change.delivery
            if !change.bases.isEmpty {
                bases = Dictionary(uniqueKeysWithValues: change.bases.map { (Self.name($0.key), $0.value) })
            }
            if !change.conflicts.isEmpty { conflicts = change.conflicts.sorted().map { Self.name($0) } }
        }

        func domain() throws -> MetadataChange {
            func parse(_ name: String, _ field: String) throws -> ProfileMetadata.Key {
                guard let key = Self.key(name) else { throw AccountFile.invalid(field, name) }
                return key
            }
            var parsedBases: [ProfileMetadata.Key: String] = [:]
            for (name, value) in bases ?? [:] { parsedBases[try parse(name, "outbox.metadata.bases")] = value }
            return MetadataChange(
                changeId: changeId, revision: revision,
                keys: Set(try keys.map { try parse($0, "outbox.metadata.keys") }),
                delivery: delivery, bases: parsedBases,
                conflicts: Set(try (conflicts ?? []).map { try parse($0, "outbox.metadata.conflicts") }))
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
        /// Added later in version 1 (absent in older files): the server's height when the height was
        /// edited (`hasHeightBase`; absent inside: it had none), and whether the height is held as a conflict.
        var hasHeightBase: Bool?
        var heightBase: Double?
        var heightConflict: Bool?

        init(_ change: PhysicalChange) {
            revision = change.revision
            includesHeight = change.includesHeight
            includesBiologicalSex = change.includesBiologicalSex
            changeIds = change.changeIds.sorted { $0.uuidString < $1.uuidString }
            delivery = change.delivery
            if change.hasHeightBase {
                hasHeightBase = true
                heightBase = change.heightBase
            }
            if change.heightConflict { heightConflict = true }
        }

        var domain: PhysicalChange {
            PhysicalChange(
                revision: revision, includesHeight: includesHeight, includesBiologicalSex: includesBiologicalSex,
                changeIds: Set(changeIds), delivery: delivery, heightBase: heightBase,
                hasHeightBase: hasHeightBase ?? false, heightConflict: heightConflict ?? false)
        }
    }

    /// A queued post is written as the domain's ``ProgressPost`` codes it (`id`, `entry` with `type`,
    /// `quantity`, `loggedAt` and `notes`, `changeId`, `sendAttempted`, `delivery`): its keys are pinned
    /// by the format tests, and ``AccountFileV2`` encodes each one once while it stays the same.
    typealias ProgressPostV1 = ProgressPost

    /// A value the domain does not know (a unit system, a sex, a field name): the file is unreadable.
    struct InvalidValue: Error, CustomStringConvertible {
        let field: String
        let value: String
        var description: String { "the field \(field) holds \"\(value)\", which this fitiq-tui does not know" }
    }

    static func invalid(_ field: String, _ value: String) -> InvalidValue {
        InvalidValue(field: field, value: TextSanitizer.sanitize(value))
    }

    /// One change `undo` can reverse: its kind, what it was, and what the kind needs. `wording` keeps
    /// what it was as data, worded when read; `description` is that sentence as said when it was saved,
    /// for a cache written before `wording` (and for an older fitiq-tui reading this one's).
    struct UndoStepV1: Codable, Sendable {
        var kind: String
        var description: String
        var wording: UndoWordingV1?
        var previousMetadata: MetadataV1?
        var entry: EntryV1?
        var entryId: UUID?
        var previousHeight: Double?
        var previousMeasuredAt: Date?
        var wasLatest: Bool?

        init(_ step: UndoStep) {
            description = step.description
            wording = UndoWordingV1(step.wording)
            switch step {
            case .metadata(let previous, _):
                kind = "metadata"
                previousMetadata = MetadataV1(previous)
            case .entryLogged(let entryId, let height, let measuredAt, _):
                kind = "entryLogged"
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
            // A wording this build cannot read (or none) falls back to the sentence saved with it.
            func worded(_ data: (UndoWordingV1) -> UndoWording?) -> UndoWording {
                wording.flatMap(data) ?? .text(description)
            }
            switch kind {
            case "metadata":
                guard let previous = try previousMetadata?.domain() else { break }
                return .metadata(previous: previous, wording: worded(\.changedFields))
            // Before weight and body fat, only heights were logged.
            case "entryLogged", "heightLogged":
                guard let entryId else { break }
                return .entryLogged(
                    entryId: entryId, previousHeight: previousHeight, previousMeasuredAt: previousMeasuredAt,
                    wording: worded { $0.reading.map(UndoWording.logged) })
            case "entryRemoved":
                guard let entry else { break }
                return .entryRemoved(
                    entry.domain, wasLatest: wasLatest ?? false, wording: worded { $0.reading.map(UndoWording.removed) }
                )
            case "entryCorrected":
                guard let entry, let entryId else { break }
                return .entryCorrected(
                    before: entry.domain, afterId: entryId, wasLatest: wasLatest ?? false,
                    wording: worded { $0.reading.map(UndoWording.corrected) })
            default:
                break
            }
            throw AccountFile.invalid("undoLog.kind", kind)
        }
    }

    /// What an undo step was, as data: the profile fields changed (`fields`, their keys), or the
    /// measurement's `type`, `value`, `day` and the `unitSystem` it was shown in.
    struct UndoWordingV1: Codable, Sendable {
        var fields: [String]?
        var type: String?
        var value: Double?
        var day: CalendarDate?
        var unitSystem: String?

        init?(_ wording: UndoWording) {
            switch wording {
            case .fields(let keys):
                fields = keys.map(\.rawValue)
            case .logged(let reading), .removed(let reading), .corrected(let reading):
                type = reading.type
                value = reading.value
                day = reading.day
                unitSystem = reading.unitSystem.rawValue
            case .text:
                return nil
            }
        }

        var changedFields: UndoWording? {
            guard let keys = fields else { return nil }
            let known = keys.compactMap(ProfileMetadata.Key.init(rawValue:))
            return known.count == keys.count ? .fields(known) : nil
        }

        var reading: UndoReading? {
            guard let type, let value, let day, let units = unitSystem.flatMap(UnitSystem.init(rawValue:)) else {
                return nil
            }
            return UndoReading(type: type, value: value, day: day, unitSystem: units)
        }
    }
}
