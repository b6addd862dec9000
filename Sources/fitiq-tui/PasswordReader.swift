#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a password: from standard input when it is not a terminal (scripts), otherwise from a prompt
/// that does not echo. Never from the command line.
enum PasswordReader {
    static func read(prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            let data = StandardStreams.readInput()
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\r\n") {
                text.removeLast(2)
            } else if text.hasSuffix("\n") {
                text.removeLast()
            }
            guard !text.isEmpty else { throw PasswordError.noPassword }
            return text
        }
        StandardStreams.writeError(prompt)
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            StandardStreams.writeError("\n")
        }
        return Swift.readLine(strippingNewline: true) ?? ""
    }
}

enum PasswordError: Error, CustomStringConvertible {
    case noPassword

    var description: String { "No password was given on standard input." }
}
