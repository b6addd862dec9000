/// A key the user pressed, as the UI understands it.
public enum Key: Hashable, Sendable {
    /// A printable character (a grapheme cluster).
    case character(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    /// A word back or forward (Alt-B / Alt-F, Ctrl-← / Ctrl-→).
    case wordLeft, wordRight
    /// Ctrl with a letter, e.g. `.control("s")` for Ctrl-S.
    case control(Character)
    /// The mouse wheel turned up or down (over anything: the place decides what scrolls).
    case wheelUp, wheelDown
    /// A click on a kind of thing on the screen; which one is in the ``MouseReport``.
    case click(Clickable)
}

/// What a click can land on, as the key table binds clicks.
public enum Clickable: Hashable, Sendable, CaseIterable {
    /// A field of the profile (its label or its value).
    case field
    /// An entry of the history list.
    case entry
    /// A key hint in the footer.
    case hint
    /// The screen outside the box shown over it.
    case outside
}

/// A mouse report from the terminal: a click of the main button or a turn of the wheel, at a cell.
public struct MouseReport: Hashable, Sendable {
    public enum Gesture: Hashable, Sendable {
        case click, wheelUp, wheelDown
    }

    public let gesture: Gesture
    /// The cell's column and row, from 0 at the top left.
    public let x: Int
    public let y: Int

    public init(_ gesture: Gesture, x: Int, y: Int) {
        self.gesture = gesture
        self.x = x
        self.y = y
    }
}

/// What the terminal reports.
public enum TerminalInput: Hashable, Sendable {
    case key(Key)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
    /// The mouse (when it is on: ``MouseReport``).
    case mouse(MouseReport)
    /// Text the terminal marked as pasted (bracketed paste): text, never keys, exactly as it came.
    case paste(String)
    /// The terminal's contents may be gone (the program was stopped and continued): paint it whole.
    case repaint
    /// The terminal is gone (its connection closed and no SIGHUP came, as under `nohup`): nothing can
    /// be shown or typed any more.
    case hangUp
}

/// A terminal that shows cell buffers and reports keys; used from one thread only.
public protocol TerminalScreen: AnyObject {
    /// Columns and rows now.
    var size: (width: Int, height: Int) { get }
    /// Whether colours may be used (false under `NO_COLOR` or on terminals without colour).
    var usesColor: Bool { get }
    /// Shows `buffer`, changing only what differs from the last frame; the cursor goes to `cursor` if given.
    func draw(_ buffer: CellBuffer, cursor: (x: Int, y: Int)?)
    /// Waits up to `milliseconds` for input; `nil` when none arrived, or when ``waker`` was called
    /// (during the wait, or since the last call: then it does not wait).
    func nextInput(timeout milliseconds: Int) -> TerminalInput?
    /// Ends a wait in ``nextInput(timeout:)`` early; callable from any thread (a task has a result for
    /// the loop), and harmless once the terminal is closed.
    var waker: @Sendable () -> Void { get }
    /// Restores the terminal; safe to call more than once.
    func restore()
    /// Makes the next ``draw(_:cursor:)`` paint every cell (Ctrl-L, after a suspension).
    func invalidate()
    /// Gives the terminal back to the shell and stops the process (Ctrl-Z); returns once it is
    /// continued, with the terminal the program's again.
    func suspend()
    /// Runs `body` with the terminal given back (an external editor), then takes it again.
    func runOutside(_ body: () -> Void)
}
