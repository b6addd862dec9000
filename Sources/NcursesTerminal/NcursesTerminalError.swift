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
            "The interactive editor needs a terminal: standard input and output must not be redirected."
        case .unknownTerminal(let term):
            "The terminal type \(term.map { "'\($0)'" } ?? "(TERM is not set)") is unknown; try TERM=xterm-256color."
        case .alreadyOpen:
            "The terminal is already open in this process."
        }
    }
}
