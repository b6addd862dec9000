import CNcurses
import FitIQTUI

/// The real terminal, through ncursesw: paints cell buffers and reports keys and resizes.
///
/// ncurses keeps process-wide state and is not thread-safe (docs/ncurses.md "One thread"), so a screen is created,
/// used and released on one thread; that is why it is not `Sendable`. One screen is open at a time.
/// The terminal is restored by ``restore()``, by `deinit`, at `exit` and on fatal signals (see
/// `fitiq_install_restore_handlers` in the CNcurses shim).
public final class NcursesScreen: TerminalScreen {
    /// Whether colours are drawn (false under `NO_COLOR` or on terminals without colour).
    public let usesColor: Bool

    let window: UnsafeMutablePointer<WINDOW>
    private let screen: OpaquePointer
    let palette: TerminalPalette
    /// False once ``restore()`` has run; drawing and reading then do nothing.
    private(set) var isOpen = true
    /// The frame ncurses holds, to paint only what changes, and the screen size it was painted at.
    var previousFrame: CellBuffer?
    var previousScreenSize: (width: Int, height: Int)?
    /// Whether the cursor is shown (`nil`: not set yet).
    var cursorVisible: Bool?
    /// Input decoded from one batch of reads and not returned yet, oldest first.
    var pendingInputs: [TerminalInput] = []
    /// A bracketed paste whose end has not arrived yet, and what else one batch leaves for the next.
    var decoderState = KeyDecoder.State()
    /// Ends a wait for input early: tasks with results and the signal handlers write to it.
    let wakePipe = WakePipe()
    /// Whether mouse reports are asked for (off while the terminal is given back).
    let mouse: Bool

    /// Opens the terminal: UTF-8 locale, raw keys (Ctrl-C and Ctrl-S arrive as keys), no echo, 25 ms
    /// Esc delay, hidden cursor, and colours when the terminal has them and `NO_COLOR` is not set.
    ///
    /// - Parameters:
    ///   - environment: the process environment (`NO_COLOR`, `TERM`).
    ///   - mouse: whether clicks and the wheel are reported (``TerminalInput/mouse(_:)``).
    public init(environment: [String: String], mouse: Bool = false) throws {
        guard fitiq_stdio_are_terminals() != 0 else { throw NcursesTerminalError.notATerminal }
        guard fitiq_is_curses_active() == 0 else { throw NcursesTerminalError.alreadyOpen }
        Self.useUTF8Locale()
        // Before newterm: ncurses installs its own SIGINT/SIGTERM handlers only where none is set.
        fitiq_install_restore_handlers()
        fitiq_install_stop_handler()
        let term = environment["TERM"].flatMap { $0.isEmpty ? nil : $0 }
        guard let screen = fitiq_newterm(term), let window = fitiq_stdscr() else {
            throw NcursesTerminalError.unknownTerminal(term: term)
        }
        self.screen = screen
        self.window = window
        self.mouse = mouse
        fitiq_set_curses_active(1)
        raw()  // not cbreak: IXON would swallow Ctrl-S (docs/ncurses.md "Raw mode")
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(25)  // docs/ncurses.md "Escape delay"
        let colorReady =
            TerminalPalette.allowsColor(environment: environment) && has_colors()
            && start_color() == OK && use_default_colors() == OK
        palette = TerminalPalette(
            terminalHasColors: colorReady, colorCount: Int(fitiq_colors()), environment: environment)
        usesColor = palette.usesColor
        for definition in palette.pairDefinitions {
            init_pair(definition.pair, definition.foreground, -1)
        }
        setCursorVisible(false)
        // Before the handlers that write to it are installed; they run wherever the signal lands.
        fitiq_set_wake_fd(wakePipe.writeEndForSignals)
        fitiq_install_continue_handler()
        // After newterm: it calls the handler ncurses installed there, then wakes the key loop.
        fitiq_install_resize_handler()
        // Pastes arrive marked, so they are text, never keys; terminals without the mode ignore it.
        fitiq_set_bracketed_paste(1)
        if mouse { fitiq_mouse_on(1) }
    }

    deinit {
        restore()
        delscreen(screen)
        // A signal handler that runs from now on writes nowhere; a task's wake finds the pipe closed.
        fitiq_set_wake_fd(-1)
        wakePipe.closeEnds()
    }

    /// Wakes ``nextInput(timeout:)`` from any thread; does nothing once the screen is gone.
    public var waker: @Sendable () -> Void {
        { [wakePipe] in wakePipe.wake() }
    }

    /// Columns and rows now (ncurses updates them before it reports `KEY_RESIZE`).
    public var size: (width: Int, height: Int) {
        (Int(max(0, getmaxx(window))), Int(max(0, getmaxy(window))))
    }

    /// Leaves curses mode (`endwin`): the cursor, echo and line editing come back. Safe to call again.
    public func restore() {
        guard isOpen else { return }
        isOpen = false
        fitiq_set_curses_active(0)
        if mouse { fitiq_mouse_on(0) }
        endwin()
        fitiq_set_bracketed_paste(0)
    }

    /// Whether the process was continued (SIGCONT) since the last call.
    ///
    /// The signal flags live in the shim's function-local statics, and each object file that calls
    /// the shim's inline functions gets its own copy of them: the handlers are installed here, so every
    /// read of their flags stays in this file too.
    func takeContinued() -> Bool { fitiq_take_continued() != 0 }

    /// Whether a stop signal (`kill -TSTP`) arrived since the last call.
    func takeStopRequest() -> Bool { fitiq_take_stop_request() != 0 }

    /// Paints every cell at the next draw, clearing whatever else the terminal shows.
    public func invalidate() {
        previousFrame = nil
        clearok(window, true)
    }

    /// Ctrl-Z: gives the terminal back (as on exit), stops the process, and takes the terminal again
    /// once continued (`fg`); the next draw paints everything.
    public func suspend() {
        runOutside { fitiq_stop_process() }
        _ = fitiq_take_continued()  // this continue is ours: the next draw repaints anyway
    }

    /// Runs `body` with the terminal as the shell left it (cooked mode, no bracketed paste), then takes
    /// it back and repaints at the next draw.
    public func runOutside(_ body: () -> Void) {
        guard isOpen else { return body() }
        fitiq_set_bracketed_paste(0)
        if mouse { fitiq_mouse_on(0) }
        fitiq_set_curses_active(0)
        endwin()
        body()
        reset_prog_mode()
        fitiq_set_curses_active(1)
        fitiq_set_bracketed_paste(1)
        if mouse { fitiq_mouse_on(1) }
        invalidate()
    }

    func setCursorVisible(_ visible: Bool) {
        guard cursorVisible != visible else { return }
        cursorVisible = visible
        curs_set(visible ? 1 : 0)  // ERR on terminals that cannot hide it (vt100): nothing to do
    }

    /// `setlocale(LC_ALL, "")`, falling back to C.UTF-8 for characters when the user's locale is not
    /// UTF-8 (LANG unset over SSH): otherwise borders print as `lqqk` and typed `ñ` never arrives
    /// (docs/ncurses.md "Locale").
    private static func useUTF8Locale() {
        setlocale(LC_ALL, "")
        let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0) } ?? ""
        if codeset != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }
}
