import FitIQCore
import FitIQLocalization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension RemoteError: CustomStringConvertible {
    /// The message to show: the server's own where it sent one, else why there was no answer.
    public var message: String {
        if case .tokensKeptChanging = self { return Self.tokensReason }
        return serverMessage ?? transportFailure?.description ?? ""
    }

    /// Why ``tokensKeptChanging`` got no answer to use.
    private static var tokensReason: String { tr("the session's tokens kept changing; will retry") }

    /// Why there was no usable answer, when the failure was on the way.
    private var transportFailure: TransportFailure? {
        switch self {
        case .unreachable(let reason), .offline(let reason), .invalidResponse(let reason): reason
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let reason), .offline(let reason):
            tr("The server could not be reached: {message}", ["message": reason.description])
        case .unavailable(let status, let message):
            tr("The server is unavailable (HTTP {status}): {message}", ["status": String(status), "message": message])
        case .invalidResponse(let reason):
            tr("The server's answer could not be read: {message}", ["message": reason.description])
        case .unauthorized(let message): tr("The server refused the credentials: {message}", ["message": message])
        case .notFound(let message), .conflict(let message), .rejected(_, let message):
            tr("The server said: {message}", ["message": message])
        case .tokensKeptChanging:
            tr(
                "The server is unavailable (HTTP {status}): {message}",
                ["status": "401", "message": Self.tokensReason])
        }
    }
}

extension TransportFailure: CustomStringConvertible {
    /// Why, in a few words: `connection refused (is the server running?)`.
    public var description: String {
        switch self {
        case .answerTooLarge(let size): tr("the answer is larger than {size} KiB", ["size": String(size)])
        case .cancelled: tr("cancelled")
        case .proxyWantsCredentials(let proxy):
            tr("the proxy {proxy} asks for a user name and password (HTTP 407)", ["proxy": proxy])
        case .proxyRefused(let proxy, let status):
            tr(
                "the proxy {proxy} refused to reach the server (HTTP {status})",
                ["proxy": proxy, "status": String(status)])
        case .proxyNotFound(let proxy?): tr("the proxy {proxy} cannot be found", ["proxy": proxy])
        case .proxyNotFound(nil): tr("the proxy set in the environment cannot be found")
        case .proxyUnreachable(let proxy, let reason):
            tr("the proxy {proxy} cannot be reached ({reason})", ["proxy": proxy, "reason": reason])
        case .connectionRefused: tr("connection refused (is the server running?)")
        case .timedOut(let reason): tr("no answer in time ({reason})", ["reason": reason])
        case .noAnswerWithin(let seconds): tr("no answer within {seconds} s", ["seconds": String(seconds)])
        case .tls(let reason): tr("TLS verification failed: {reason}", ["reason": reason])
        case .throughProxy(let proxy, let reason):
            tr("through the proxy {proxy}: {reason}", ["proxy": proxy, "reason": reason])
        case .unreadableAnswer(let status, let reason):
            tr("HTTP {status} answer could not be read: {reason}", ["status": String(status), "reason": reason])
        case .other(let text): text
        }
    }
}

extension SyncProblem: CustomStringConvertible {
    public var description: String {
        switch self {
        case .remote(let error): error.description
        case .profileExists(let message):
            tr("The server said \"{message}\" although the profile exists; will retry.", ["message": message])
        case .said(let text): text
        }
    }

    /// The sentence in English, for the cache's readable copy and JSON output (which are never
    /// translated).
    public var english: String { speaking(.english) { description } }

    /// ``english`` as an encoder's `userInfo` holds it (``SyncProblem/inEnglish``).
    public static let englishWording: Wording = { $0.english }
}

extension PendingChange {
    /// What changed, e.g. `profile: name, bio` or `weight history: 72.4 kg on 2026-11-22`.
    public var summary: String { subject.summary }
}

extension PendingChange.Subject {
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

extension UndoStep: CustomStringConvertible {
    /// What the change was, as `undo` says it undid it, in the language in force.
    public var description: String { wording.sentence }
}

extension UndoWording {
    /// The wording in the language in force.
    public var sentence: String {
        switch self {
        case .fields(let keys):
            tr("the change of {fields}", ["fields": keys.sorted().map(\.field.labelInSentence).joined(separator: ", ")])
        case .logged(let reading):
            Metric.loggedStep(type: reading.type, reading.value, on: reading.day, unitSystem: reading.unitSystem)
        case .removed(let reading):
            Metric.removalStep(type: reading.type, reading.value, on: reading.day, unitSystem: reading.unitSystem)
        case .corrected(let reading):
            Metric.correctionStep(type: reading.type, reading.value, on: reading.day, unitSystem: reading.unitSystem)
        case .text(let text):
            text
        }
    }
}

extension BiologicalSexSyncResult: CustomStringConvertible {
    public var description: String {
        switch self {
        case .queued(let sex):
            tr("Biological sex {sex} from the health source; sending it to the server.", ["sex": sex.shown])
        case .unchanged(let sex):
            tr("Biological sex {sex} from the health source; the server already has it.", ["sex": sex.shown])
        case .notSet: tr("The health data says biological sex is not set; the current value is kept.")
        case .unknown(let raw):
            tr(
                "The health data holds an unknown biological sex ({value}); the current value is kept.",
                ["value": TextSanitizer.sanitize(raw)])
        case .missing: tr("The health data has no biological sex; the current value is kept.")
        }
    }
}
