import CNcurses
import Synchronization

/// The pipe that ends the key loop's wait early: tasks with a result and the signal handlers write a
/// byte to it, and the loop polls its read end together with the terminal's input.
///
/// Its write end is closed under a lock, so a task that wakes a terminal already released writes
/// nothing (and never to a descriptor number reused by then).
final class WakePipe: Sendable {
    /// The end polled with the terminal's input; -1 when no pipe could be made (then only input and
    /// the timeout end a wait).
    let readEnd: Int32
    /// The end written to; -1 once closed.
    private let writeEnd: Mutex<Int32>
    /// The write end as it was opened, for the signal handlers (which cannot take a lock).
    let writeEndForSignals: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        if fitiq_open_wake_pipe(&ends) != 0 { ends = [-1, -1] }
        readEnd = ends[0]
        writeEnd = Mutex(ends[1])
        writeEndForSignals = ends[1]
    }

    /// Writes a byte; the next (or current) wait returns at once.
    func wake() {
        writeEnd.withLock { fitiq_wake($0) }
    }

    /// How a wait ended.
    enum Wake {
        case timedOut
        /// Input, a wake (used up) or a signal.
        case woken
        /// `input` hung up: its other end is closed (what was sent before may still be read).
        case hungUp
    }

    /// Sleeps until `input` can be read, a wake comes (and is used up) or `milliseconds` pass. A
    /// signal that interrupts the sleep counts as a wake.
    func wait(forInputOn input: Int32, milliseconds: Int) -> Wake {
        switch fitiq_wait_for_input(input, readEnd, Int32(clamping: max(0, milliseconds))) {
        case 0: .timedOut
        case 2: .hungUp
        default: .woken
        }
    }

    /// Closes both ends; later wakes do nothing.
    func closeEnds() {
        let written = writeEnd.withLock { end in
            defer { end = -1 }
            return end
        }
        if written >= 0 { close(written) }
        if readEnd >= 0 { close(readEnd) }
    }
}
