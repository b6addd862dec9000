import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a password: from standard input when it is not a terminal (scripts), otherwise from a prompt
/// that does not echo. Never from the command line.
enum PasswordReader {
    static func read(prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\r\n") {
                text.removeLast(2)
            } else if text.hasSuffix("\n") {
                text.removeLast()
            }
            guard !text.isEmpty else { throw PasswordError.noPassword }
            return text
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return Swift.readLine(strippingNewline: true) ?? ""
    }
}

enum PasswordError: Error, CustomStringConvertible {
    case noPassword

    var description: String { "No password was given on standard input." }
}
