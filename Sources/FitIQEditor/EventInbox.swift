import FitIQCore
import FitIQTUI
import Synchronization

/// The events the editor's tasks post for the terminal loop, oldest first; posting one wakes the loop
/// if it sleeps waiting for input.
final class EventInbox: Sendable {
    private struct State {
        var events: [Event] = []
        var waker: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// The store revision of the account last posted: the cache watch posts only others' writes.
    private let shown = Mutex<StoreRevision?>(nil)

    init() {}

    /// Queues `event` and wakes whoever waits for events (the terminal loop, or a test).
    func post(_ event: Event) {
        let waker = state.withLock { state in
            state.events.append(event)
            return state.waker
        }
        waker?()
    }

    /// Everything queued, oldest first; the queue is then empty.
    func take() -> [Event] {
        state.withLock { state in
            defer { state.events = [] }
            return state.events
        }
    }

    /// Calls `waker` after every post from now on, in place of the one set before (`nil`: none).
    func wake(with waker: (@Sendable () -> Void)?) {
        state.withLock { $0.waker = waker }
    }

    /// Posts `account` as it stands, as the screen shows it; nothing when the cache cannot be read.
    func publish(_ account: Account) async {
        guard let view = await view(of: account) else { return }
        post(.accountChanged(view))
    }

    /// Marks `view` as shown: the cache watch does not post its revision again.
    func shown(_ view: AccountView) {
        shown.withLock { $0 = view.revision }
    }

    /// `account` as it stands, noted as shown.
    func view(of account: Account) async -> AccountView? {
        // The overview, not the whole state: what the screen draws of the history is in its summary.
        guard let view = try? await account.view() else { return nil }
        shown(view)
        return view
    }

    /// Whether `revision` is not the one last shown; it is shown from now on.
    func isNew(_ revision: StoreRevision) -> Bool {
        shown.withLock { last in
            defer { last = revision }
            return last != revision
        }
    }
}
