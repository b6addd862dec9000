#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request the sync engine makes to drain the outbox.
public enum SyncOperation: Sendable, Equatable {
    /// `PUT /users/me` with the latest full metadata.
    case updateMetadata(ProfileMetadata, revision: Int)
    /// `PATCH /users/me/physical` with only height and/or biological sex.
    case updatePhysical(PhysicalPatch, revision: Int)
    /// `POST /progress`; `checkServerFirst` after an attempt whose outcome is unknown.
    case logProgress(id: UUID, NewProgressEntry, checkServerFirst: Bool)
    /// `DELETE /progress/{serverId}`: 204 and 404 both mean the entry is gone.
    case deleteProgress(id: UUID, serverId: String)

    /// The outbox entry the operation drains.
    public var item: OutboxItemID {
        switch self {
        case .updateMetadata: .metadata
        case .updatePhysical: .physical
        case .logProgress(let id, _, _): .progress(id)
        case .deleteProgress(let id, _): .deletion(id)
        }
    }

    /// Whether it sends a profile or height change: one made from a server value, checked for conflicts
    /// right before it goes out.
    var isProfileChange: Bool { item == .metadata || item == .physical }
}

/// What the outbox asks for next.
public enum SyncAction: Sendable, Equatable {
    /// Send this request now.
    case send(SyncOperation)
    /// Nothing is due before this instant.
    case wait(until: Date)
    /// Nothing to send (the outbox is empty or holds only rejected entries).
    case idle
}

/// How a request ended, in the classes the outbox acts on.
public enum SyncOutcome: Sendable, Equatable {
    /// The server acknowledged the change.
    case delivered
    /// The server acknowledged a profile change (`PUT`/`PATCH`); its answer's `updatedAt`, which the
    /// server's copy in the cache takes, so that the next read of an unchanged server writes nothing.
    case saved(updatedAt: Date?)
    /// The server holds the progress entry under this id.
    case logged(serverId: String)
    /// A retryable failure; try again after a backoff.
    case retry(SyncProblem)
    /// The server refused the change with this message; park it.
    case rejected(String)
    /// The attempt was given up without an answer either way (for example, the session ended).
    case abandoned
}
