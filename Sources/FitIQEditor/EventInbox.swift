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

    /// Posts `account`'s cached state, as the screen shows it; nothing when the cache cannot be read.
    func publish(_ account: Account) async {
        // The overview, not the whole state: what the screen draws of the history is in its summary.
        guard let view = try? await account.view() else { return }
        post(.accountChanged(view))
    }
}
