#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a drain does once an attempt finds no way to the server (``RemoteError/offline(message:)``).
public enum OfflineRule: Sendable {
    /// Waits out backoffs and tries again until the deadline (`sync --wait`, the editor's sync).
    case keepTrying
    /// A delivery (``Account/deliver()``): stops at once, keeping what is pending with the reason, and
    /// starts nothing once the deadline has passed. A command that saved locally says so without
    /// waiting.
    case stop
}

/// What one send of a batch leaves for the rest of the drain.
struct SendOutcome: Sendable {
    /// A profile or height change is to be tried again: it is checked for conflicts before it is.
    var recheck: Bool
    /// Why an attempt of the batch found no way to the server, when one did.
    var offline: SyncProblem?
}

/// What a drain carries from one round to the next: its deadline and rule, whether a conflict check is
/// owed, and whether the server was found out of reach.
struct DrainRun: Sendable {
    let deadline: Date?
    let rule: OfflineRule
    /// A profile or height change is checked against the server before it next goes out: the caller's
    /// check did not reach the server, or the change failed and may have waited while another device
    /// changed the server.
    var checkOwed: Bool
    /// Why an attempt found no way to the server, once one did under ``OfflineRule/stop``: everything
    /// due is then marked with it (so `status` says it) without another attempt.
    private(set) var offline: SyncProblem?

    init(deadline: Date?, rule: OfflineRule, checkOwed: Bool) {
        self.deadline = deadline
        self.rule = rule
        self.checkOwed = checkOwed
    }

    /// Whether a round that begins at `now` begins at all: a delivery starts nothing after its deadline.
    func goesOn(at now: Date) -> Bool {
        guard rule == .stop, let deadline else { return true }
        return now <= deadline
    }

    /// Records a conflict check: `problem` says why it did not reach the server (`nil`: it did).
    mutating func checked(_ problem: SyncProblem?) {
        checkOwed = problem != nil
        note(problem)
    }

    /// Records what a send left.
    mutating func sent(_ outcome: SendOutcome) {
        checkOwed = checkOwed || outcome.recheck
        note(outcome.offline)
    }

    /// Whether the drain waits until `until` for what `state` holds back: only within the deadline, and
    /// not for what waits because its last attempt found no way to the server, once the rule stops then
    /// (no wait now would find one).
    func waits(until: Date, in state: RecentAccountState) -> Bool {
        guard let deadline, until <= deadline else { return false }
        guard rule == .stop else { return true }
        return offline == nil && !state.pending.waitsForAWayToTheServer
    }

    private mutating func note(_ problem: SyncProblem?) {
        if rule == .stop, offline == nil, let problem, problem.isOffline { offline = problem }
    }
}

extension SyncEngine {
    /// How long a claim a save made must still hold for the drain to send its batch without claiming it
    /// again: no other sender takes it while its requests are in flight.
    static let reservationMargin: TimeInterval = 10

    /// Sends what is due until the outbox is empty (or only holds rejected entries), a round at a time:
    /// read the outbox, check a profile or height change against the server before it goes out, take
    /// the next batch, then send it, wait for it, or end. The outbox (``AccountState/nextAction``,
    /// ``AccountState/claimNext``, ``AccountState/finish``) decides; the drain carries out.
    ///
    /// The metadata `PUT` and each deletion go one at a time. Progress posts are claimed
    /// ``windowsPerBatch`` windows at a time (with the physical `PATCH` when one is due) and sent through
    /// a sliding window (``send``): over a network's latency they overlap instead of queueing. Each batch
    /// costs two cache writes (claimed and written ahead, then acknowledged) however many posts it holds;
    /// a batch a save reserved in its own write (``reserve(_:)``) costs only the second.
    ///
    /// - Parameters:
    ///   - deadline: waits for backoffs up to this instant; with `nil`, stops at the first wait.
    ///   - checkFirst: check a profile or height change for conflicts before it is first sent (the
    ///     caller made no check that reached the server).
    ///   - whenOffline: what to do once an attempt finds no way to the server (refused, an unknown
    ///     name, no route): keep trying until `deadline`, or stop at once, keeping what is pending.
    /// - Throws: ``SessionError`` when the account is or becomes signed out; the outbox is kept.
    @discardableResult
    public func drain(
        until deadline: Date? = nil, checkFirst: Bool = false, whenOffline: OfflineRule = .keepTrying
    ) async throws -> SyncReport {
        var run = DrainRun(deadline: deadline, rule: whenOffline, checkOwed: checkFirst)
        while true {
            try Task.checkCancellation()
            let now = environment.now()
            // 1. Where the outbox stands: the round's one read.
            let state = try await store.overview().state
            guard run.goesOn(at: now) else { return SyncReport(state) }
            // 2. A profile or height change due now is checked against the server first. A check that
            // reached it may have changed the cache: the next round reads it again. Why one did not is
            // kept: the change is then not sent unchecked, it is tried again later.
            var unchecked: SyncProblem?
            if run.checkOwed, run.offline == nil,
                case .send(let operation) = state.nextAction(
                    for: owner, now: now, isVoid: isVoid, reserved: reservedItems),
                operation.isProfileChange
            {
                unchecked = try await conflictCheck(in: state)
                run.checked(unchecked)
                if unchecked == nil { continue }
            }
            // 3. The next batch: the one a save reserved, or one claimed now.
            let (action, batch, after) = try await take(from: state, now: now)
            // 4. Sent, waited for, or the end.
            switch action {
            case .idle:
                return SyncReport(after)
            case .wait(let until):
                guard run.waits(until: until, in: after) else { return SyncReport(after) }
                try await environment.clock.sleep(for: .seconds(max(0, until.timeIntervalSince(now))))
            case .send:
                // A check still owed (the batch held no profile or height change) stays owed.
                run.sent(try await send(batch, unchecked: unchecked, offline: run.offline))
            }
        }
    }

    /// What goes out next, and the outbox as it then stands: the batch a save reserved when `state`
    /// shows it as that save claimed it (``reservedBatch(in:now:)``), sent without a write; otherwise
    /// the next batch claimed now in one write, and what was reserved and not taken let go, for other
    /// senders. Claims touch the outbox alone: a cold process reads and writes account.json only.
    private func take(from state: RecentAccountState, now: Date) async throws -> (
        SyncAction, [SyncOperation], RecentAccountState
    ) {
        if let batch = reservedBatch(in: state, now: now), let first = batch.first {
            let sent = Set(batch.map(\.item))
            reserved.removeAll { sent.contains($0.item) }
            return (.send(first), batch, state)
        }
        let held = reservedItems
        reserved.removeAll()
        let (owner, holder, isVoid) = (self.owner, environment.process, self.isVoid)
        let limit = window.size * Self.windowsPerBatch
        return try await store.updateRecent { state in
            let next = state.claimNext(
                for: owner, now: now, holder: holder, isVoid: isVoid, limit: limit, reserved: held)
            state.outbox.release(held.subtracting(next.batch.map(\.item)), of: owner)
            return (next.action, next.batch, state)
        }
    }

    /// The batch a save reserved for this engine, when `state` still shows it as that save claimed it:
    /// what is due next, unchanged since (no conflict found, no other edit), and held by this engine
    /// for ``reservationMargin`` more at least. The one check of a save's claim; `nil` when the batch
    /// is to be claimed again.
    private func reservedBatch(in state: RecentAccountState, now: Date) -> [SyncOperation]? {
        let held = reservedItems
        guard !held.isEmpty else { return nil }
        var next = state
        let claimed = next.claimNext(
            for: owner, now: now, holder: environment.process, isVoid: isVoid,
            limit: window.size * Self.windowsPerBatch, reserved: held)
        guard case .send = claimed.action, !claimed.batch.isEmpty else { return nil }
        let until = now.addingTimeInterval(Self.reservationMargin)
        var batch: [SyncOperation] = []
        for taken in claimed.batch {
            guard let saved = reserved.first(where: { $0.item == taken.item }),
                state.outbox.isClaimed(taken.item, by: owner, until: until)
            else { return nil }
            // A reserved post was marked as attempted by its own claim: it was not sent.
            if case .logProgress = taken {} else if saved != taken { return nil }
            batch.append(saved)
        }
        return batch
    }
}
