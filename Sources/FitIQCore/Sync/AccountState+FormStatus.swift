#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the changes of one form stand, as a screen shows them under the form: nothing waiting,
/// waiting to be sent, or refused with the server's message. Screens read this, not the outbox.
public struct FormChangeStatus: Sendable, Equatable {
    /// Whether any change of the form is not on the server yet.
    public var isPending: Bool
    /// The server's message for a change it refused, if one was.
    public var rejection: String?

    public init(isPending: Bool, rejection: String? = nil) {
        self.isPending = isPending
        self.rejection = rejection
    }

    /// Nothing waiting.
    public static let settled = FormChangeStatus(isPending: false)
}

extension AccountRecord {
    /// The profile form's change: the one coalesced `PUT /users/me`.
    public var metadataStatus: FormChangeStatus {
        guard let change = outbox.metadata else { return .settled }
        return FormChangeStatus(isPending: true, rejection: change.delivery.rejection)
    }

    /// The physical form's changes: the `PATCH /users/me/physical` and every measurement's posts and
    /// deletions; a refused one is named first.
    public var physicalStatus: FormChangeStatus {
        let deliveries =
            outbox.progress.map(\.delivery) + outbox.deletions.map(\.delivery)
            + (outbox.physical.map { [$0.delivery] } ?? [])
        guard !deliveries.isEmpty else { return .settled }
        return FormChangeStatus(isPending: true, rejection: deliveries.lazy.compactMap(\.rejection).first)
    }
}
