import FitIQTUI
import Foundation
import Synchronization

/// A terminal for the editor loop's tests: it records every frame drawn and hands out inputs a test
/// queues, each once the frames shown so far satisfy its condition. The loop runs on a thread of its
/// own (its `run` blocks, as it does on the real terminal).
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
    }

    private let state = Mutex(State())
    let size: (width: Int, height: Int)
    let usesColor = false

    init(width: Int = 100, height: Int = 30) {
        size = (width, height)
    }

    /// The last frame drawn.
    var screen: CellBuffer? { state.withLock { $0.frames.last } }

    /// How many frames were drawn.
    var frameCount: Int { state.withLock { $0.frames.count } }

    /// Queues `input`, handed to the loop once the screen satisfies `when` (at once by default).
    func send(_ input: TerminalInput, when: @escaping @Sendable (CellBuffer) -> Bool = { _ in true }) {
        state.withLock { $0.pending.append(Pending(input: input, when: when)) }
    }

    /// Queues the keys of `text`, one character each.
    func type(_ text: String) {
        for character in text { send(.key(.character(character))) }
    }

    func draw(_ buffer: CellBuffer, cursor: (x: Int, y: Int)?) {
        state.withLock { $0.frames.append(buffer) }
    }

    func nextInput(timeout milliseconds: Int) -> TerminalInput? {
        let next = state.withLock { state -> TerminalInput? in
            guard let first = state.pending.first, let frame = state.frames.last, first.when(frame) else { return nil }
            state.pending.removeFirst()
            return first.input
        }
        // The real terminal waits up to `milliseconds` for a key; a short pause keeps this one from spinning.
        if next == nil { usleep(1000) }
        return next
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
}

extension CellBuffer {
    /// Whether some row contains `text`.
    func shows(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }

    /// The title bar (the first row).
    var title: String { lines.first ?? "" }
}
