import FitIQLocalization

/// Why the terminal could not be opened.
public enum NcursesTerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a CI job).
    case notATerminal
    /// ncurses does not know the terminal type.
    case unknownTerminal(term: String?)
    /// A screen is already open in this process (ncurses has one set of global state).
    case alreadyOpen

    public var description: String {
        switch self {
        case .notATerminal:
            tr("The interactive editor needs a terminal: standard input and output must not be redirected.")
        case .unknownTerminal(let term):
            if let term {
                tr("The terminal type '{term}' is unknown; try TERM=xterm-256color.", ["term": term])
            } else {
                tr("The terminal type is unknown (TERM is not set); try TERM=xterm-256color.")
            }
        case .alreadyOpen:
            tr("The terminal is already open in this process.")
        }
    }
}
