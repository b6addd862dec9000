import FitIQLocalization

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
        return lineWithoutEcho(endingOn: STDERR_FILENO) ?? ""
    }

    /// One line of the terminal on standard input, typed without echo; the newline the user typed is
    /// written to `output` (it was not echoed either).
    private static func lineWithoutEcho(endingOn output: Int32) -> String? {
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            StandardStreams.write("\n", to: output)
        }
        return Swift.readLine(strippingNewline: true)
    }
}

extension PasswordReader {
    /// Reads one line as a password: without echo from a terminal (after `prompt` on standard output),
    /// as it comes from a pipe; `nil` at the end of the input.
    static func readLine(prompt: String) -> String? {
        StandardStreams.write(prompt, to: STDOUT_FILENO)
        guard StandardStreams.isTerminal(STDIN_FILENO) else { return Swift.readLine(strippingNewline: true) }
        return lineWithoutEcho(endingOn: STDOUT_FILENO)
    }
}

enum PasswordError: Error, CustomStringConvertible {
    case noPassword

    var description: String { tr("No password was given on standard input.") }
}
