#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One user-visible change waiting in the outbox, as status and logout name it.
public struct PendingChange: Sendable, Equatable {
    public var item: OutboxItemID
    /// What changed, e.g. `profile: name, bio` or `weight history: 72.4 kg on 2026-11-22`.
    public var summary: String
    /// The server's message when it refused the change.
    public var rejection: String?
    /// The last retryable failure, if any.
    public var lastError: String?
    /// How many user-visible changes the entry carries.
    public var changeCount: Int
    /// What keeps it from going out at the next sync, when something does (a rejection aside).
    public var hold: Hold? = nil

    /// What keeps a pending change waiting, and so what a person can do about it.
    public enum Hold: Sendable, Equatable {
        /// Every field it carries conflicts with the server's value: it waits for `resolve`.
        case conflict
        /// A failed attempt is backing off until then; a sync started by hand tries at once.
        case backoff(until: Date)
        /// A running process is sending it now (pid when known); it lets go when it is done or exits.
        case sending(pid: Int32?)
    }
}

extension AccountRecord {
    /// The outbox as a list a person can read, in queue order.
    ///
    /// - Parameters:
    ///   - now: with it, each change says what holds it back then (``PendingChange/hold``).
    ///   - isRunning: whether a claim's holder still runs; a claim of a process that ended holds nothing.
    public func pendingChanges(
        timeZone: LocalZone = .utc, now: Date? = nil, isRunning: (ProcessIdentity) -> Bool = { _ in true }
    ) -> [PendingChange] {
        var changes: [PendingChange] = []
        func hold(_ delivery: Delivery, conflicted: Bool = false) -> PendingChange.Hold? {
            guard delivery.rejection == nil else { return nil }
            if conflicted { return .conflict }
            guard let now else { return nil }
            if let claim = delivery.claim, claim.until > now, claim.holder.map(isRunning) ?? true {
                return .sending(pid: claim.holder?.pid)
            }
            if let notBefore = delivery.notBefore, notBefore > now { return .backoff(until: notBefore) }
            return nil
        }
        let units = profile?.preferredUnitSystem ?? .metric
        if let change = outbox.metadata {
            let fields = change.keys.sorted().map { $0.field.label.lowercased() }.joined(separator: ", ")
            changes.append(
                PendingChange(
                    item: .metadata, summary: "profile: \(fields)", rejection: change.delivery.rejection,
                    lastError: change.delivery.lastError, changeCount: 1,
                    hold: hold(change.delivery, conflicted: change.keys.isSubset(of: change.conflicts))))
        }
        if let change = outbox.physical {
            var parts: [String] = []
            let patch = pendingPhysicalPatch
            if let height = patch.heightCm {
                parts.append(Metric.reading(type: Metric.height.type, height, unitSystem: units))
            }
            if let sex = patch.biologicalSex { parts.append("biological sex \(sex) (from health source)") }
            // Height changes are counted with their history entries; only what those do not carry counts here.
            let covered = Set(outbox.progress.map(\.changeId) + outbox.deletions.map(\.changeId))
            changes.append(
                PendingChange(
                    item: .physical, summary: "physical: " + parts.joined(separator: ", "),
                    rejection: change.delivery.rejection, lastError: change.delivery.lastError,
                    changeCount: change.changeIds.subtracting(covered).count,
                    hold: hold(change.delivery, conflicted: change.heightConflict && !change.includesBiologicalSex)))
        }
        let corrections = Set(outbox.progress.map(\.changeId))
        for deletion in outbox.deletions {
            let summary = Metric.pendingRemoval(
                type: deletion.type, deletion.quantity, on: CalendarDate(containing: deletion.loggedAt, in: timeZone),
                unitSystem: units)
            changes.append(
                PendingChange(
                    item: .deletion(deletion.id), summary: summary,
                    rejection: deletion.delivery.rejection, lastError: deletion.delivery.lastError,
                    // A correction (delete and post) is one change, counted with its post.
                    changeCount: corrections.contains(deletion.changeId) ? 0 : 1, hold: hold(deletion.delivery)))
        }
        for post in outbox.progress {
            let summary = Metric.pendingEntry(
                type: post.entry.type, post.entry.quantity,
                on: CalendarDate(containing: post.entry.loggedAt, in: timeZone), unitSystem: units)
            changes.append(
                PendingChange(
                    item: .progress(post.id), summary: summary,
                    rejection: post.delivery.rejection, lastError: post.delivery.lastError, changeCount: 1,
                    hold: hold(post.delivery)))
        }
        return changes
    }

    /// User-visible changes not yet acknowledged and not rejected (a height change counts once).
    public var pendingChangeCount: Int {
        pendingChanges().filter { $0.rejection == nil }.reduce(0) { $0 + $1.changeCount }
    }

    /// User-visible changes the server refused.
    public var rejectedChangeCount: Int {
        pendingChanges().filter { $0.rejection != nil }.reduce(0) { $0 + max(1, $1.changeCount) }
    }
}

extension PendingChange.Hold {
    /// What holds the change back and what a person can do about it, in a few words.
    public func advice(now: Date) -> String {
        switch self {
        case .conflict:
            return "held until its conflict is resolved"
        case .backoff(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
            return "next try in \(seconds) s; a sync now tries at once"
        case .sending(let pid):
            return pid.map { "being sent by process \($0); it lets go when it ends" } ?? "being sent by another process"
        }
    }
}
