#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Changes saved locally and not yet acknowledged by the server: one ordered queue per resource.
public struct Outbox: Sendable, Codable, Equatable {
    /// The pending `PUT /users/me`; coalesced: it always sends the latest full metadata.
    public var metadata: MetadataChange?
    /// The pending `PATCH /users/me/physical`; coalesced per field.
    public var physical: PhysicalChange?
    /// Pending `POST /progress`, in order; never coalesced.
    public var progress: [ProgressPost]
    /// Pending `DELETE /progress/{id}` of entries the server has (a correction or a deletion).
    public var deletions: [ProgressDeletion]

    public init(
        metadata: MetadataChange? = nil, physical: PhysicalChange? = nil, progress: [ProgressPost] = [],
        deletions: [ProgressDeletion] = []
    ) {
        self.metadata = metadata
        self.physical = physical
        self.progress = progress
        self.deletions = deletions
    }

    /// How long a sender may hold an entry before others consider it abandoned.
    public static let claimDuration: TimeInterval = 30

    /// The exponential backoff with jitter before attempt `attempt + 1` (`random` in 0..<1).
    public static func backoff(afterAttempts attempt: Int, random: Double) -> TimeInterval {
        let base = min(60, Double(1 << min(6, max(0, attempt - 1))))
        // Jitter spreads the retries of many clients (and of two processes of one user) apart.
        return base * (0.5 + 0.5 * random)
    }

    /// Whether nothing is waiting to be sent or parked as rejected.
    public var isEmpty: Bool { metadata == nil && physical == nil && progress.isEmpty && deletions.isEmpty }
}

/// Names one outbox entry, for retry and discard.
public enum OutboxItemID: Sendable, Hashable, Codable {
    case metadata
    case physical
    case progress(UUID)
    case deletion(UUID)
}

/// Delivery bookkeeping of one outbox entry.
public struct Delivery: Sendable, Codable, Equatable {
    /// Failed attempts since the entry last changed.
    public var attempts = 0
    /// No attempt before this instant (backoff).
    public var notBefore: Date?
    /// The last retryable failure, for the status display.
    public var lastProblem: SyncProblem? {
        get { problem ?? lastError.map(SyncProblem.said) }
        set {
            problem = newValue
            lastError = nil
        }
    }
    /// ``lastProblem`` kept as data (worded when shown, in the language then in force).
    private var problem: SyncProblem?
    /// ``lastProblem`` in English, as a cache kept it whose reason this build cannot read as data (one
    /// written before reasons were kept as data, or by another build). A file gets the English of
    /// ``problem`` too (``SyncProblem/inEnglish``), for an older fitiq-tui that reads only this.
    private var lastError: String?
    /// The server's message when it refused the change; a rejected entry is parked until retried.
    public var rejection: String?
    /// A sender working on the entry right now (any process); other senders leave it alone until `until`.
    public var claim: Claim?

    public init() {}

    /// Whether the server refused the entry.
    public var isRejected: Bool { rejection != nil }

    /// Makes a refused entry pending again after a new edit; a backoff in progress is kept, so edits
    /// made while offline do not each cause a request.
    mutating func reopen() {
        rejection = nil
    }

    /// Forgets failures, so the entry is sent at the next chance.
    mutating func reset() {
        attempts = 0
        notBefore = nil
        lastProblem = nil
        rejection = nil
    }
}

extension Delivery {
    private enum CodingKeys: String, CodingKey { case attempts, notBefore, problem, lastError, rejection, claim }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        attempts = try container.decodeIfPresent(Int.self, forKey: .attempts) ?? 0
        notBefore = try container.decodeIfPresent(Date.self, forKey: .notBefore)
        // A reason of a shape this build does not know is read as the English kept beside it.
        problem = try? container.decodeIfPresent(SyncProblem.self, forKey: .problem)
        lastError = problem == nil ? try container.decodeIfPresent(String.self, forKey: .lastError) : nil
        rejection = try container.decodeIfPresent(String.self, forKey: .rejection)
        claim = try container.decodeIfPresent(Claim.self, forKey: .claim)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(attempts, forKey: .attempts)
        try container.encodeIfPresent(notBefore, forKey: .notBefore)
        try container.encodeIfPresent(problem, forKey: .problem)
        let english = problem.flatMap { (encoder.userInfo[SyncProblem.inEnglish] as? SyncProblem.Wording)?($0) }
        try container.encodeIfPresent(english ?? lastError, forKey: .lastError)
        try container.encodeIfPresent(rejection, forKey: .rejection)
        try container.encodeIfPresent(claim, forKey: .claim)
    }
}

/// A sender's hold on an outbox entry while its request is in flight.
public struct Claim: Sendable, Codable, Equatable {
    public var owner: UUID
    public var until: Date
    /// The process holding it, when known: once that process is gone, the claim is void at once
    /// instead of at `until` (a terminal closed in the middle of a sync).
    public var holder: ProcessIdentity?
}

/// One process on this machine: its pid, and when it started, so a reused pid is not mistaken for it.
public struct ProcessIdentity: Sendable, Codable, Hashable {
    public var pid: Int32
    public var startTime: UInt64

    public init(pid: Int32, startTime: UInt64) {
        self.pid = pid
        self.startTime = startTime
    }
}

/// The pending metadata update.
public struct MetadataChange: Sendable, Codable, Equatable {
    public var changeId: UUID
    /// Bumped on every coalesced edit, so an answer to an older request does not clear a newer edit.
    public var revision: Int
    /// The fields the user changed since the server last acknowledged.
    public var keys: Set<ProfileMetadata.Key>
    public var delivery: Delivery
    /// The server's value each pending field was edited from (three-way conflict check).
    public var bases: [ProfileMetadata.Key: String] = [:]
    /// Pending fields the server changed since, to something else: not sent until resolved.
    public var conflicts: Set<ProfileMetadata.Key> = []

    public init(
        changeId: UUID, revision: Int, keys: Set<ProfileMetadata.Key>, delivery: Delivery,
        bases: [ProfileMetadata.Key: String] = [:], conflicts: Set<ProfileMetadata.Key> = []
    ) {
        self.changeId = changeId
        self.revision = revision
        self.keys = keys
        self.delivery = delivery
        self.bases = bases
        self.conflicts = conflicts
    }
}

/// The pending physical update: which fields to send; values are read from the profile when sending.
public struct PhysicalChange: Sendable, Codable, Equatable {
    public var revision: Int
    public var includesHeight: Bool
    public var includesBiologicalSex: Bool
    /// The user-visible changes this request carries (a height change is one change: PATCH and POST).
    public var changeIds: Set<UUID>
    public var delivery: Delivery
    /// The server's height when the height edit was made (`hasHeightBase`; `nil` inside: it had none).
    public var heightBase: Double?
    public var hasHeightBase = false
    /// The server's height changed since, to something else: the height is not sent until resolved.
    public var heightConflict = false

    public init(
        revision: Int, includesHeight: Bool, includesBiologicalSex: Bool, changeIds: Set<UUID>, delivery: Delivery,
        heightBase: Double? = nil, hasHeightBase: Bool = false, heightConflict: Bool = false
    ) {
        self.revision = revision
        self.includesHeight = includesHeight
        self.includesBiologicalSex = includesBiologicalSex
        self.changeIds = changeIds
        self.delivery = delivery
        self.heightBase = heightBase
        self.hasHeightBase = hasHeightBase
        self.heightConflict = heightConflict
    }
}

/// One pending `DELETE /progress/{id}`: a history entry removed here that the server holds.
public struct ProgressDeletion: Sendable, Codable, Equatable {
    /// The removed entry as it was: what status shows, and what comes back if the removal is dropped.
    public var entry: ProgressEntry
    /// The server's id of the entry.
    public var serverId: String
    /// The user-visible change it belongs to (a correction's delete and post share one).
    public var changeId: UUID
    public var delivery: Delivery
    /// Set when first claimed for sending: from then on the server may have deleted the entry, answered
    /// or not, so dropping the removal would leave here an entry the server no longer holds.
    public var sendAttempted: Bool

    public init(
        removing entry: ProgressEntry, serverId: String, changeId: UUID, delivery: Delivery = Delivery(),
        sendAttempted: Bool = false
    ) {
        (self.entry, self.serverId, self.changeId, self.delivery) = (entry, serverId, changeId, delivery)
        self.sendAttempted = sendAttempted
    }

    /// The local id of the removed entry.
    public var id: UUID { entry.id }
}

/// One pending `POST /progress`.
public struct ProgressPost: Sendable, Codable, Equatable {
    /// The id of the local history entry it creates on the server.
    public var id: UUID
    public var entry: NewProgressEntry
    /// The user-visible change it belongs to.
    public var changeId: UUID
    /// Set before the first send: a later send must first look for the entry on the server, because an
    /// earlier attempt may have created it without the answer arriving.
    public var sendAttempted: Bool
    public var delivery: Delivery

    public init(id: UUID, entry: NewProgressEntry, changeId: UUID, sendAttempted: Bool, delivery: Delivery) {
        self.id = id
        self.entry = entry
        self.changeId = changeId
        self.sendAttempted = sendAttempted
        self.delivery = delivery
    }
}
