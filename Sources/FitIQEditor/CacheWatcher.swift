import FitIQCore
import FitIQTUI
import Synchronization

/// Shows what other processes write to the account's cache: on each change a ``CacheWatch`` reports,
/// and after each sync round, it compares the store's revision with the last one shown and posts the
/// account again when it moved. This process's own saves and acknowledgements reach the screen
/// directly (``EventInbox/view(of:)``), and their revisions count as shown.
///
/// Without a watch (or for a cache it cannot watch) only the sync rounds look, so other processes'
/// changes appear with the next sync; no file is looked at on a timer.
final class CacheWatcher: Sendable {
    private let slot: AccountSlot
    private let inbox: EventInbox
    private let watch: (any CacheWatch)?

    /// Follows `slot`'s account through `watch` (`nil`: none), posting to `inbox`.
    init(slot: AccountSlot, inbox: EventInbox, watch: (any CacheWatch)?) {
        self.slot = slot
        self.inbox = inbox
        self.watch = watch
    }

    /// Watches the account's cache, and the next account's once one signs in; returns when the task
    /// is cancelled (at once without a watch).
    func run() async {
        // The first frame showed the overview read before the loop began: posted again if it moved since.
        if let account = slot.account { await check(account) }
        guard let watch else { return }
        var following: Task<Void, Never>?
        for await account in slot.accounts() {
            following?.cancel()
            following = Task { await self.follow(account, through: watch) }
        }
        following?.cancel()
    }

    /// Posts `account` when its store's revision differs from the last one shown.
    func check(_ account: Account) async {
        guard let revision = await account.revision() else { return }
        if inbox.isNew(revision) { await inbox.publish(account) }
    }

    private func follow(_ account: Account, through watch: any CacheWatch) async {
        guard let changes = watch.changes(of: account) else { return }
        for await _ in changes { await check(account) }
    }
}
