import FitIQCore
import FitIQTUI
import FitIQWords
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Syncs the editor's account: at once when asked (a save, the `s` key, a sign-in) and every
/// ``interval`` on the clock without being asked, reporting each sync as connection events.
///
/// Nothing is polled: between rounds it waits on the clock for the next scheduled sync, and a request
/// ends that wait at once. After each round `afterRound` looks at the account (the cache's revision,
/// which shows what the sync wrote).
final class BackgroundSync: Sendable {
    /// How often the account is synced without being asked.
    static let interval = Duration.seconds(30)

    private let slot: AccountSlot
    private let inbox: EventInbox
    private let clock: any DatedClock
    private let afterRound: @Sendable (Account) async -> Void
    private let requests = WakeSignal()
    /// What the requests since the last round began asked for: `nil` for nothing.
    private let wanted = Mutex<Round?>(nil)

    /// What a round does.
    enum Round: Sendable, Equatable {
        /// Send pending changes, then read the profile and the history (the schedule, `s`, a sign-in).
        case scheduled
        /// Only send (a save): the answers are the server's copy; nothing else is read.
        case push
    }

    /// Syncs `slot`'s account, posting to `inbox`; `clock` times the rounds.
    init(
        slot: AccountSlot, inbox: EventInbox, clock: any DatedClock,
        afterRound: @escaping @Sendable (Account) async -> Void = { _ in }
    ) {
        self.slot = slot
        self.inbox = inbox
        self.clock = clock
        self.afterRound = afterRound
    }

    /// Starts a sync now: at once if none runs, else right after the running one.
    func requestSync() {
        wanted.withLock { $0 = .scheduled }
        requests.signal()
    }

    /// Sends what a save queued now, reading nothing else, unless a full sync is asked for too.
    func requestPush() {
        wanted.withLock { round in
            if round == nil { round = .push }
        }
        requests.signal()
    }

    /// Syncs at once if there is an account, then whenever asked or the interval passes; returns when
    /// the task is cancelled.
    func run() async {
        var round = Round.scheduled
        // The account whose acknowledgements reach the screen as they are recorded: subscribed once,
        // when it is first synced (a sign-in brings another).
        var observed: AccountKey?
        while !Task.isCancelled {
            // Requests made until now are served by this round; later ones wake the next and say
            // what it does.
            requests.clear()
            wanted.withLock { $0 = nil }
            if let account = slot.account {
                if observed != account.key {
                    let key = account.key
                    observed = key
                    // The account's engine keeps this closure, so it holds the slot weakly rather than
                    // the account: holding the account would keep its engine, store and session alive
                    // after a sign-in brings another, and after the editor ends.
                    await account.onSettled { [inbox, weak slot] in
                        if let current = slot?.account, current.key == key { await inbox.publish(current) }
                    }
                }
                await sync(account, round)
                await afterRound(account)
            }
            await requests.wait(orFor: Self.interval, on: clock)
            // The interval passing asks for nothing: a scheduled round.
            round = wanted.withLock { $0 } ?? .scheduled
        }
    }

    /// One sync, reported as connection events: syncing, then online, offline (with why) or signed out.
    private func sync(_ account: Account, _ round: Round) async {
        inbox.post(.connection(.syncing))
        do {
            // A save is delivered as every front end delivers one; a round of the schedule keeps to the
            // same deadline, on the account's clock.
            let report =
                round == .push
                ? try await account.deliver()
                : try await account.syncNow(until: account.environment.clock.date(after: Account.deliveryDeadline))
            if report.pending > 0, let reason = report.lastProblem?.description {
                inbox.post(.connection(.offline(reason)))
            } else {
                inbox.post(.connection(.online))
            }
        } catch let error as SessionError {
            inbox.post(.connection(.signedOut(error.description)))
        } catch {
            inbox.post(.connection(.offline(ShownError(error).description)))
        }
    }
}
