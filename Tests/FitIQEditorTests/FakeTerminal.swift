import FitIQTUI
import Foundation
import Synchronization

/// A terminal for the editor loop's tests: it records every frame drawn and hands out inputs a test
/// queues, each once the frames shown so far satisfy its condition. The loop runs on a thread of its
/// own (its `run` blocks, as it does on the real terminal).
///
/// Its wait for input ends when the test queues an input or the loop's tasks wake it (``waker``);
/// its timeouts never expire unless asked (`timeoutsExpire`), so a test sees that the loop needs no
/// timeout to take a result. A wait that nothing ends gives up after a minute (a hang guard).
final class FakeTerminal: TerminalScreen, Sendable {
    private struct Pending {
        let input: TerminalInput
        let when: @Sendable (CellBuffer) -> Bool
    }

    private struct State {
        var frames: [CellBuffer] = []
        var pending: [Pending] = []
        var restored = false
        var invalidations = 0
        var suspensions = 0
        var outside = 0
        var woken = false
        var wakes = 0
        var timeouts: [Int] = []
        var expired = 0
    }

    private struct Observer {
        let id: Int
        let holds: @Sendable () -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state = Mutex(State())
    /// Tests waiting for a condition, checked after each frame and each wait for input.
    private let observers = Mutex<(next: Int, waiting: [Observer])>((0, []))
    /// Signalled whenever an input is queued or the terminal is woken; waited on by ``nextInput``.
    private let changed = NSCondition()
    private let timeoutsExpire: Bool
    let size: (width: Int, height: Int)
    let usesColor = false

    /// A terminal of `width` by `height`; with `timeoutsExpire`, a wait ends after its timeout (in
    /// real time) like the real terminal's.
    init(width: Int = 100, height: Int = 30, timeoutsExpire: Bool = false) {
        size = (width, height)
        self.timeoutsExpire = timeoutsExpire
    }

    /// The last frame drawn.
    var screen: CellBuffer? { state.withLock { $0.frames.last } }

    /// Every frame drawn, oldest first.
    var frames: [CellBuffer] { state.withLock { $0.frames } }

    /// How many frames were drawn.
    var frameCount: Int { state.withLock { $0.frames.count } }

    /// Queues `input`, handed to the loop once the screen satisfies `when` (at once by default).
    func send(_ input: TerminalInput, when: @escaping @Sendable (CellBuffer) -> Bool = { _ in true }) {
        state.withLock { $0.pending.append(Pending(input: input, when: when)) }
        signalChange()
    }

    /// Queues the keys of `text`, one character each.
    func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    func draw(_ buffer: CellBuffer, cursor: (x: Int, y: Int)?) {
        state.withLock { $0.frames.append(buffer) }
        notifyObservers()
    }

    /// Looks at what ``until(_:_:)`` waits for again: for a change the terminal does not see.
    func poke() {
        notifyObservers()
    }

    /// Waits until `holds` is true, looking after each frame drawn and each wait for input (hang-guarded).
    func until(_ what: String, _ holds: @escaping @Sendable () -> Bool) async throws {
        try await withHangGuard(what) { [self] in
            await observe(holds)
            return holds() ? true : nil
        }
    }

    /// Waits until a frame drawn satisfies `condition`, and returns it.
    @discardableResult
    func frame(_ what: String, where condition: @escaping @Sendable (CellBuffer) -> Bool) async throws -> CellBuffer {
        try await until(what) { [self] in screen.map(condition) ?? false }
        return screen ?? CellBuffer(width: 0, height: 0)
    }

    /// Returns once `holds` is true or the task is cancelled.
    private func observe(_ holds: @escaping @Sendable () -> Bool) async {
        let id = observers.withLock { observers in
            defer { observers.next += 1 }
            return observers.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled { return continuation.resume() }
                observers.withLock { $0.waiting.append(Observer(id: id, holds: holds, continuation: continuation)) }
                notifyObservers()
            }
        } onCancel: {
            resumeObserver(id)
        }
    }

    private func notifyObservers() {
        for observer in observers.withLock({ $0.waiting }) where observer.holds() { resumeObserver(observer.id) }
    }

    private func resumeObserver(_ id: Int) {
        let observer = observers.withLock { observers -> Observer? in
            guard let index = observers.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return observers.waiting.remove(at: index)
        }
        observer?.continuation.resume()
    }

    /// The first queued input if the screen satisfies its condition; `nil` when woken (the wake is
    /// used up), or once the timeout expires.
    func nextInput(timeout milliseconds: Int) -> TerminalInput? {
        state.withLock { $0.timeouts.append(milliseconds) }
        notifyObservers()
        let limit =
            timeoutsExpire || milliseconds <= 0
            ? Date().addingTimeInterval(Double(max(0, milliseconds)) / 1000) : Date().addingTimeInterval(60)
        changed.lock()
        defer { changed.unlock() }
        while true {
            let (input, woken) = state.withLock { state -> (TerminalInput?, Bool) in
                if let first = state.pending.first, let frame = state.frames.last, first.when(frame) {
                    state.pending.removeFirst()
                    return (first.input, false)
                }
                defer { state.woken = false }
                return (nil, state.woken)
            }
            if input != nil || woken { return input }
            guard changed.wait(until: limit) else {
                if milliseconds > 0 { state.withLock { $0.expired += 1 } }
                return nil
            }
        }
    }

    /// Ends the loop's wait for input, as a task's result does on the real terminal.
    var waker: @Sendable () -> Void {
        { [self] in
            state.withLock { state in
                state.woken = true
                state.wakes += 1
            }
            signalChange()
        }
    }

    private func signalChange() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    func restore() {
        state.withLock { $0.restored = true }
    }

    func invalidate() {
        state.withLock { $0.invalidations += 1 }
    }

    func suspend() {
        state.withLock { $0.suspensions += 1 }
    }

    func runOutside(_ body: () -> Void) {
        state.withLock { $0.outside += 1 }
        body()
    }

    /// How many times the loop asked for a whole repaint, a suspension, or ran something outside.
    var invalidations: Int { state.withLock { $0.invalidations } }
    var suspensions: Int { state.withLock { $0.suspensions } }
    var outsideRuns: Int { state.withLock { $0.outside } }

    var wasRestored: Bool { state.withLock { $0.restored } }

    /// The timeouts the loop waited with, in milliseconds, oldest first.
    var timeouts: [Int] { state.withLock { $0.timeouts } }
    /// How many waits with a timeout ended because it expired (with `timeoutsExpire`, or the hang guard).
    var expiredTimeouts: Int { state.withLock { $0.expired } }
    /// How many times the loop's tasks woke the terminal.
    var wakes: Int { state.withLock { $0.wakes } }
}

extension CellBuffer {
    /// Whether some row contains `text`.
    func shows(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }

    /// The title bar (the first row).
    var title: String { lines.first ?? "" }
}
