#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Who sends what: the claims senders hold on the outbox's entries, and their backoff.
extension Outbox {
    /// The delivery bookkeeping of `item`, if it is queued.
    public func delivery(of item: OutboxItemID) -> Delivery? {
        switch item {
        case .metadata: metadata?.delivery
        case .physical: physical?.delivery
        case .progress(let id): progress.first { $0.id == id }?.delivery
        case .deletion(let id): deletions.first { $0.id == id }?.delivery
        }
    }

    /// Changes the delivery bookkeeping of `item`, if it is queued.
    mutating func changeDelivery(of item: OutboxItemID, _ body: (inout Delivery) -> Void) {
        switch item {
        case .metadata:
            guard var change = metadata else { return }
            body(&change.delivery)
            metadata = change
        case .physical:
            guard var change = physical else { return }
            body(&change.delivery)
            physical = change
        case .progress(let id):
            if let index = progress.firstIndex(where: { $0.id == id }) { body(&progress[index].delivery) }
        case .deletion(let id):
            if let index = deletions.firstIndex(where: { $0.id == id }) { body(&deletions[index].delivery) }
        }
    }

    /// Lets go of claims that no longer hold: past their time, or taken by a process that has ended
    /// (a sync killed mid-request). The entry is then judged and sent like any other.
    public mutating func releaseVoidClaims(now: Date, isVoid: (Claim) -> Bool) {
        releaseClaims { claim, _ in claim.until <= now || isVoid(claim) }
    }

    /// Whether `owner` holds the claim on `item` until `until` at least.
    public func isClaimed(_ item: OutboxItemID, by owner: UUID, until: Date) -> Bool {
        guard let claim = delivery(of: item)?.claim else { return false }
        return claim.owner == owner && claim.until >= until
    }

    /// Lets go of `owner`'s claims on `items` (reserved at a save and not sent after all).
    public mutating func release(_ items: Set<OutboxItemID>, of owner: UUID) {
        releaseClaims { claim, item in claim.owner == owner && items.contains(item) }
    }

    /// Lets go of each claim that `isReleased` picks, given the claim and the entry it holds.
    mutating func releaseClaims(where isReleased: (Claim, OutboxItemID) -> Bool) {
        forEachDelivery { delivery, item in
            if let claim = delivery.claim, isReleased(claim, item) { delivery.claim = nil }
        }
    }

    /// Sends a parked or backing-off entry again at the next chance.
    public mutating func retry(_ item: OutboxItemID) {
        changeDelivery(of: item) { $0.reset() }
    }

    /// Ends every backoff, so pending entries are sent at once (the user asked to sync now).
    public mutating func retryPendingNow() {
        forEachDelivery { delivery, _ in delivery.notBefore = nil }
    }

    /// Changes the delivery bookkeeping of every queued entry, in one pass.
    private mutating func forEachDelivery(_ body: (inout Delivery, OutboxItemID) -> Void) {
        if var change = metadata {
            body(&change.delivery, .metadata)
            metadata = change
        }
        if var change = physical {
            body(&change.delivery, .physical)
            physical = change
        }
        for index in progress.indices { body(&progress[index].delivery, .progress(progress[index].id)) }
        for index in deletions.indices { body(&deletions[index].delivery, .deletion(deletions[index].id)) }
    }
}
