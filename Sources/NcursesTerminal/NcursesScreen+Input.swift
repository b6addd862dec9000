import CNcurses
import FitIQTUI

extension NcursesScreen {
    /// Reads everything that arrives together, so an Esc can be told apart from Alt-x and combining
    /// marks join their base; the rest of a batch is returned by the next calls without waiting.
    public func nextInput(timeout milliseconds: Int) -> TerminalInput? {
        if !pendingInputs.isEmpty { return pendingInputs.removeFirst() }
        guard isOpen else { return nil }
        var reads: [RawRead] = []
        wtimeout(window, Int32(clamping: max(0, milliseconds)))
        guard let first = readOnce() else { return nil }
        reads.append(first)
        // Zero timeout: only what has already arrived (P4's "peek"), bounded so a paste cannot stall us.
        wtimeout(window, 0)
        while reads.count < Self.batchLimit, let next = readOnce() { reads.append(next) }
        pendingInputs = KeyDecoder.decode(reads, size: size)
        return pendingInputs.isEmpty ? nil : pendingInputs.removeFirst()
    }

    private static let batchLimit = 256

    private func readOnce() -> RawRead? {
        var value: wint_t = 0
        let status = wget_wch(window, &value)
        return status == ERR ? nil : RawRead(status: status, value: value)
    }
}
