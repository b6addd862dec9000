import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One user-visible change waiting in the outbox, as status and logout name it.
public struct PendingChange: Sendable, Equatable {
    public var item: OutboxItemID
    /// What changed, kept as data: the sentence (``summary``) is said when it is read, in the language
    /// then in force (a view built by the background sync is shown in the editor's language of the
    /// moment).
    public var subject: Subject
    /// What changed, e.g. `profile: name, bio` or `weight history: 72.4 kg on 2026-11-22`.
    public var summary: String { subject.summary }
    /// The server's message when it refused the change.
    public var rejection: String?
    /// The last retryable failure, if any (worded when read).
    public var lastProblem: SyncProblem?
    /// How many user-visible changes the entry carries.
    public var changeCount: Int
    /// What keeps it from going out at the next sync, when something does (a rejection aside).
    public var hold: Hold? = nil

    /// What a pending change changes.
    public enum Subject: Sendable, Equatable {
        /// The profile's fields (one `PUT`).
        case profile(fields: [Field])
        /// The physical fields (one `PATCH`): the height, a biological sex from the health source.
        case physical(heightCm: Double?, biologicalSex: BiologicalSex?, units: UnitSystem)
        /// A history entry to post.
        case entry(type: String, value: Double, day: CalendarDate, units: UnitSystem)
        /// A history entry to remove.
        case removal(type: String, value: Double, day: CalendarDate, units: UnitSystem)

        /// The sentence, in the current language.
        public var summary: String {
            switch self {
            case .profile(let fields):
                return tr("profile: {fields}", ["fields": fields.map(\.labelInSentence).joined(separator: ", ")])
            case .physical(let height, let sex, let units):
                var parts: [String] = []
                if let height { parts.append(Metric.reading(type: Metric.height.type, height, unitSystem: units)) }
                if let sex { parts.append(tr("biological sex {sex} (from health source)", ["sex": sex.shown])) }
                return tr("physical: {parts}", ["parts": parts.joined(separator: ", ")])
            case .entry(let type, let value, let day, let units):
                return Metric.pendingEntry(type: type, value, on: day, unitSystem: units)
            case .removal(let type, let value, let day, let units):
                return Metric.pendingRemoval(type: type, value, on: day, unitSystem: units)
            }
        }
    }

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

extension PendingChange {
    /// What is said beside a pending change, in the current language: why its last try failed, and
    /// what holds it back.
    public func notes(now: Date) -> [String] {
        let lastTry = lastProblem.map { tr("last try: {error}", ["error": TextSanitizer.sanitize($0.description)]) }
        return [lastTry, hold?.advice(now: now)].compactMap { $0 }
    }
}

extension PendingChange.Hold {
    /// What holds the change back and what a person can do about it, in a few words.
    public func advice(now: Date) -> String {
        switch self {
        case .conflict:
            return tr("held until its conflict is resolved")
        case .backoff(let until):
            let seconds = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
            return tr("next try in {seconds} s; a sync now tries at once", ["seconds": String(seconds)])
        case .sending(let pid):
            return pid.map { tr("being sent by process {pid}; it lets go when it ends", ["pid": String($0)]) }
                ?? tr("being sent by another process")
        }
    }
}
