import CNcurses
import FitIQTUI

extension NcursesScreen {
    /// Reads everything that arrives together, so an Esc can be told apart from Alt-x and combining
    /// marks join their base; the rest of a batch is returned by the next calls without waiting.
    ///
    /// Sleeps in `poll()` on the terminal's input and on the wake pipe: a key, a resize, a stop or
    /// continue signal, or a task's result (``waker``) ends the wait, not only the timeout.
    public func nextInput(timeout milliseconds: Int) -> TerminalInput? {
        // What ncurses has read ahead (its own buffer, which poll() does not see) or what has arrived.
        if let ready = readyInput() { return ready }
        guard isOpen else { return nil }
        switch wakePipe.wait(forInputOn: STDIN_FILENO, milliseconds: milliseconds) {
        case .timedOut: return nil
        case .woken: return readyInput()
        // What came before the hang-up first; then the end (else the loop would wake at once, forever).
        case .hungUp: return readyInput() ?? .hangUp
        }
    }

    /// The next input without waiting for any: a signal's, a batch's rest, or what has arrived.
    private func readyInput() -> TerminalInput? {
        if !pendingInputs.isEmpty { return pendingInputs.removeFirst() }
        guard isOpen else { return nil }
        if takeContinued() {
            // Stopped and continued from outside (`kill -STOP`, then `-CONT`): take the terminal again.
            reset_prog_mode()
            fitiq_set_bracketed_paste(1)
            if mouse { fitiq_mouse_on(1) }
            return .repaint
        }
        if takeStopRequest() {
            // `kill -TSTP` from outside: suspend as for Ctrl-Z (which arrives as a byte).
            return .key(.control("z"))
        }
        var reads: [ByteRead] = []
        // No wait: a resize noted by ncurses' handler comes back as KEY_RESIZE here.
        wtimeout(window, 0)
        guard let first = readOnce() else { return nil }
        reads.append(first)
        // Only what has already arrived (docs/ncurses.md "Escape delay"), bounded so a paste cannot stall us.
        while reads.count < Self.batchLimit, let next = readOnce() { reads.append(next) }
        // The rest of a character cut off by the bound or by the network is worth a short wait.
        var missing = KeyDecoder.missingBytes(reads)
        if missing > 0 { wtimeout(window, Self.restOfCharacterWait) }
        while missing > 0, let next = readOnce() {
            reads.append(next)
            missing -= 1
        }
        pendingInputs = KeyDecoder.decode(
            KeyDecoder.scalars(from: reads), size: size, state: &decoderState,
            keyName: { keyname($0).map { String(cString: $0) } })
        return pendingInputs.isEmpty ? nil : pendingInputs.removeFirst()
    }

    private static let batchLimit = 256
    private static let restOfCharacterWait: Int32 = 50

    private func readOnce() -> ByteRead? {
        let value = wgetch(window)
        switch value {
        case ERR: return nil
        case 0...255: return .byte(UInt8(value))
        case KEY_MOUSE:
            var (x, y): (Int32, Int32) = (0, 0)
            switch fitiq_take_mouse(&x, &y) {
            case 1: return .mouse(MouseReport(.click, x: Int(x), y: Int(y)))
            case 2: return .mouse(MouseReport(.wheelUp, x: Int(x), y: Int(y)))
            case 3: return .mouse(MouseReport(.wheelDown, x: Int(x), y: Int(y)))
            default: return readOnce()  // a release: nothing the editor uses
            }
        default: return .keyCode(value)
        }
    }
}
