import FitIQCore
import FitIQTUI
import Foundation
import Synchronization
import Testing

@testable import FitIQEditor

/// A test that did not see what it waited for before its hang guard ran out.
struct HungWaiting: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` until it returns a value; throws (and records an issue) if it has not after `limit`.
/// The limit only guards against hangs: nothing waits for it to pass. `body` should give up (return
/// `nil`) once cancelled.
@discardableResult
func withHangGuard<T: Sendable>(
    _ what: String, limit: Duration = .seconds(120), _ body: @escaping @Sendable () async -> T?
) async throws -> T {
    let result = await withTaskGroup(of: T?.self) { group in
        group.addTask { await body() }
        group.addTask {
            try? await ContinuousClock().sleep(for: limit)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let result else {
        Issue.record("never saw \(what)")
        throw HungWaiting(description: "never saw \(what)")
    }
    return result
}

/// The events posted to an inbox, read by a test as they come: each post wakes the reader.
final class EventLog: Sendable {
    private struct State {
        var events: [Event] = []
        var read = 0
    }

    private let inbox: EventInbox
    private let posts: AsyncStream<Void>
    private let state = Mutex(State())

    /// Reads `inbox`'s events from now on (and those queued already).
    init(_ inbox: EventInbox) {
        self.inbox = inbox
        let (posts, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.posts = posts
        inbox.wake(with: { continuation.yield() })
    }

    /// The next event satisfying `matches` after those returned before; waits for it to be posted.
    @discardableResult
    func next(_ what: String, where matches: @escaping @Sendable (Event) -> Bool) async throws -> Event {
        try await withHangGuard(what) { [self] in
            var wakes = posts.makeAsyncIterator()
            while true {
                if let found = take(matching: matches) { return found }
                guard await wakes.next() != nil else { return nil }
            }
        }
    }

    /// Every event posted so far.
    var events: [Event] {
        let taken = inbox.take()
        return state.withLock { state in
            state.events += taken
            return state.events
        }
    }

    private func take(matching matches: (Event) -> Bool) -> Event? {
        let taken = inbox.take()
        return state.withLock { state in
            state.events += taken
            guard let index = state.events[state.read...].firstIndex(where: matches) else { return nil }
            state.read = index + 1
            return state.events[index]
        }
    }
}

/// A cache watch the test drives: ``report()`` is a change on disk.
final class FakeCacheWatch: CacheWatch {
    private let watchers = Mutex<[AsyncStream<Void>.Continuation]>([])
    private let started: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation

    init() {
        (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    func changes(of account: Account) -> AsyncStream<Void>? {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        watchers.withLock { $0.append(continuation) }
        startedContinuation.yield()
        return stream
    }

    /// Tells every watcher that the cache changed.
    func report() {
        for watcher in watchers.withLock({ $0 }) { watcher.yield() }
    }

    /// Waits until an account's cache is watched.
    func waitUntilWatched() async throws {
        try await withHangGuard("the cache watched") { [started] in
            var iterator = started.makeAsyncIterator()
            return await iterator.next()
        }
    }
}

extension Event {
    /// The bio of the account this event shows, if it shows one.
    var shownBio: String? {
        if case .accountChanged(let view) = self { view.profile?.metadata.bio } else { nil }
    }

    /// Whether this is the start of a sync.
    var isSyncStart: Bool {
        if case .connection(.syncing) = self { true } else { false }
    }

    /// Whether this is the end of a sync (online, offline or signed out).
    var isSyncEnd: Bool {
        switch self {
        case .connection(.online), .connection(.offline), .connection(.signedOut): true
        default: false
        }
    }
}
